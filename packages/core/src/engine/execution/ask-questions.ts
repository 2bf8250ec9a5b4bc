import { readAnswer } from '../asking/answer';
import { answerText, declinedReason, questionText, quoted } from '../asking/ask-messages';
import { capabilityOf, withQuestionKey, type AskResponse } from '../asking/ask-request';
import { DEFAULT_ASK_ATTEMPTS, buildQuestion, type Question } from '../asking/question';
import type { DataSource } from '../../model';
import type { PlannedAsk, PlannedStep } from '../plan/plan-workflow';
import { planResolver } from '../plan/resolve-source';
import { errorMessage } from '../text/error-message';
import type { ExecutionState, QuestionRecord } from './execution-state';
import type { RunContext } from './run-context';

interface Put {
  readonly step: PlannedStep;
  readonly ask: PlannedAsk;
  readonly question: Question;
  readonly record: QuestionRecord;
}

/** How asking ended when not every question was answered: paused for a retry, or the run stops at a step. */
export type AskingStop =
  { readonly status: 'paused' } | { readonly status: 'handoff' | 'cancelled'; readonly step: PlannedStep; readonly reason: string };

/**
 * Puts the questions of a group of steps (one step, or a parallel group) to the client before any
 * of them runs, all in one round, and records each answer in the run's state, where the steps'
 * resolvers find it. Returns nothing when every question is answered; otherwise `paused` (the
 * answers come with a retry) or the step the run stops at: a handoff that says what was asked (no
 * capability, answers refused), or cancelled (the user declined or cancelled a question, or the request was cancelled).
 */
export async function askQuestions(steps: readonly PlannedStep[], context: RunContext): Promise<AskingStop | undefined> {
  const { state, host } = context;
  const channel = host.asking;
  let responses = channel?.mode === 'rounds' ? responsesFor(state, steps, channel.responses) : undefined;
  state.pause = undefined;
  for (;;) {
    const round: Put[] = [];
    for (const step of steps) {
      // A step its condition skips asks nothing (a condition on item() is known only per element).
      if (step.when && !step.when.readsItem && !step.when.holds(state)) continue;
      for (const ask of step.asks) {
        if (Object.hasOwn(state.answers, ask.key)) continue;
        const rejected = state.questions.find((record) => record.key === ask.key)?.rejected;
        const resolve = (source: DataSource) => planResolver(source)(state);
        const built = buildQuestion(ask.key, ask.field, ask.source, state.args, resolve, rejected, context.redactor.client);
        if (built.kind === 'unanswerable') return { status: 'handoff', step, reason: built.reason };
        if (built.kind === 'known') state.answers[ask.key] = built.value;
        else round.push({ step, ask, question: built.question, record: recordOf(state, step, ask) });
      }
    }
    if (round.length === 0) return undefined;

    const unsupported = round.find(({ question }) => !channel?.supports(capabilityOf(question.request)));
    if (unsupported) {
      // None of the round was put: each of its questions stays `unasked` (the status a record starts with).
      const what =
        capabilityOf(unsupported.question.request) === 'elicitation' ? 'questions (elicitation)' : 'requests to its model (sampling)';
      return {
        status: 'handoff',
        step: unsupported.step,
        reason: `the client does not accept ${what}, so it was not asked ${quoted(unsupported.question)}${choicesNote(unsupported.question)}`,
      };
    }

    let answers: readonly (AskResponse | undefined)[];
    if (responses) {
      answers = round.map(({ ask }) => responses![ask.key]);
      responses = undefined;
    } else {
      state.rounds += 1;
      for (const { step, ask, record } of round) {
        record.attempts += 1;
        record.status = 'asked';
        host.observer?.asked({ step: step.model.name, key: ask.key, kind: ask.source.kind });
      }
      if (channel!.mode === 'rounds') {
        // Kept as written, the client's text marked, like the trace: they are redacted as they go
        // out (executeWorkflowRound), and sealed with their sensitive values referenced. Stored
        // redacted, a choice echoing the client's text would shorten the state where it equals a
        // secret (issue 31.6).
        state.pause = {
          step: steps[0].index,
          requests: Object.fromEntries(round.map(({ ask, question }) => [ask.key, question.request])),
        };
        return { status: 'paused' };
      }
      try {
        answers = await Promise.all(
          round.map(({ ask, question }) =>
            channel!.send(withQuestionKey(context.redactor.redactDeep(question.request), ask.key), host.signal),
          ),
        );
      } catch (error) {
        const { step, question } = round[0];
        if (host.signal.aborted)
          return { status: 'cancelled', step, reason: `the request was cancelled while the client was asked ${quoted(question)}` };
        return { status: 'handoff', step, reason: `the client could not answer ${quoted(question)}: ${errorMessage(error)}` };
      }
    }

    for (const [index, put] of round.entries()) {
      const stop = settle(put, answers[index], context);
      if (stop) return stop;
    }
  }
}

/** Reads one answer into the state (and the trace), or says how the step ends because of it. */
function settle({ step, ask, question, record }: Put, response: AskResponse | undefined, context: RunContext): AskingStop | undefined {
  const { state, trace, redactor } = context;
  const outcome = readAnswer(question, response, redactor.client);
  const asked = quoted(question);
  switch (outcome.status) {
    case 'answered':
      record.status = 'answered';
      record.rejected = undefined;
      state.answers[ask.key] = outcome.value;
      if (ask.sensitive) redactor.learn(outcome.value, 'client');
      trace.assistant(questionText(question));
      trace.user(answerText(ask.source, outcome.value, redactor.client));
      return undefined;
    case 'declined':
    case 'cancelled':
      // A user's "no" is final: the run ends cancelled, never handed to the LLM to fill the gap.
      record.status = outcome.status;
      return { status: 'cancelled', step, reason: declinedReason(question) };
    case 'invalid': {
      const attempts = ask.source.attempts ?? DEFAULT_ASK_ATTEMPTS;
      if (record.attempts >= attempts) {
        record.status = 'refused';
        return {
          status: 'handoff',
          step,
          reason: `no acceptable answer to ${asked} after ${attempts} ${attempts === 1 ? 'try' : 'tries'}: ${outcome.problem}`,
        };
      }
      record.rejected = outcome.problem;
      return undefined;
    }
  }
}

/** The retry's answers, when they answer these steps' outstanding round; never reused for a later round. */
function responsesFor(
  state: ExecutionState,
  steps: readonly PlannedStep[],
  responses: Readonly<Record<string, AskResponse>> | undefined,
): Readonly<Record<string, AskResponse>> | undefined {
  if (!responses || state.pause?.step !== steps[0].index) return undefined;
  return Object.keys(state.pause.requests).every((key) => Object.hasOwn(responses, key)) ? responses : undefined;
}

function recordOf(state: ExecutionState, step: PlannedStep, ask: PlannedAsk): QuestionRecord {
  let record = state.questions.find((candidate) => candidate.key === ask.key);
  if (!record) {
    record = { key: ask.key, step: step.model.name, kind: ask.source.kind, attempts: 0, status: 'unasked' };
    state.questions.push(record);
  }
  return record;
}

function choicesNote(question: Question): string {
  return question.choices ? ` (choices: ${question.choices.map((choice) => choice.label).join(', ')})` : '';
}
