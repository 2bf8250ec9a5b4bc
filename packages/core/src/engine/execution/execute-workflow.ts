import type { PromptResult } from '../content';
import { applyLimits, type ExecutionLimits } from '../execution-limits';
import type { Host } from '../host';
import type { WorkflowPlan } from '../plan/plan-workflow';
import { Redactor } from '../redaction/redactor';
import type { ObservedRun, StepObserver } from '../run-observer';
import { checkedResourceRead } from '../results/checked-results';
import { MAX_MESSAGE_CHARACTERS, boundStrings } from '../text/bounded-text';
import { errorMessage } from '../text/error-message';
import { boundTrace } from '../trace/bound-trace';
import { boundMeta } from './bound-meta';
import { jsonBytesBound } from '../trace/json-size';
import { Trace } from '../trace/trace';
import { isDeclinedReason } from '../asking/ask-messages';
import { askQuestions } from './ask-questions';
import { collectSecrets, handBackSecrets } from './collect-secrets';
import { inheritSecrets } from '../redaction/run-secrets';
import { createExecutionState, type ExecutionState } from './execution-state';
import { handoffText } from './handoff-message';
import { notifyRunEnd } from './notify-run-end';
import { WorkProgress } from './report-step';
import type { RunContext } from './run-context';
import { runGroup } from './run-group';
import { declinedText, failureText, instructionResourceFailureText, intentText, planText } from './run-messages';
import { EXECUTION_META_KEY, RUN_META_KEY, type ExecutionMeta, type WorkflowHooks } from './step-events';
import { stepMeta } from './step-meta';
import { StepRunner } from './step-runner';
import { ownRecord } from '../../util/own-record';
import { isPromiseLike } from '../../util/is-promise-like';

/** Room for what a result holds besides its messages, description and execution summary: their keys, and a margin. */
const META_ENVELOPE_BYTES = 256;

/** What a server gives every run: its hooks and its limits (defaults apply to limits left out). */
export interface ExecutionOptions extends WorkflowHooks, ExecutionLimits {}

/**
 * Executes a workflow for one `prompts/get`: instructions, intent and plan, then each step in order
 * until all complete, one hands off to the LLM, one fails, or the request is cancelled. Always
 * returns the trace so far; never throws for a step's failure.
 *
 * @example
 * ```ts
 * const result = await executeWorkflow(plan, { player: 'ada' }, host, { onStep: console.log });
 * ```
 */
export async function executeWorkflow(
  plan: WorkflowPlan,
  args: Readonly<Record<string, string | undefined>>,
  host: Host,
  options: ExecutionOptions,
): Promise<PromptResult> {
  const state = createExecutionState(plan, args);
  if (host.inheritedSecrets) inheritSecrets(state.secrets, host.inheritedSecrets);
  const context = stepContext(plan, state, host, options, host.observer?.started(undefined, observedRun(plan)));
  const opening = openTrace(state, context);
  if (opening) await opening;
  await advanceExecution(state, context, options);
  if (state.pause)
    throw new Error(`workflow '${plan.model.name}' paused for answers on a host that asks by rounds: run it with executeWorkflowRound`);
  if (host.inheritedSecrets) handBackSecrets(plan, state, host.inheritedSecrets);
  const result = executionResult(state, context);
  if (options.onRunEnd) await notifyRunEnd(options, state, context.redactor);
  return result;
}

/** What the steps of a run share, writing into its state; `steps` observes them (what the host's observer returned as the run started). */
export function stepContext(
  plan: WorkflowPlan,
  state: ExecutionState,
  host: Host,
  limits: ExecutionLimits = {},
  steps?: StepObserver,
): RunContext {
  const redactor = new Redactor(state.secrets);
  return {
    plan,
    host,
    runId: state.runId,
    scope: state,
    state,
    trace: new Trace(state.messages),
    redactor,
    limits: applyLimits(limits),
    steps,
  };
}

/**
 * The trace's opening: instructions and instruction resources, the user's intent, the assistant's
 * plan. An instruction resource that cannot be read is named in the trace; the steps still run.
 * Returns a promise only when there are instruction resources to read.
 */
export function openTrace(state: ExecutionState, context: RunContext): Promise<void> | undefined {
  const { plan, trace, redactor, host } = context;
  collectSecrets(plan, state, redactor);
  for (const instruction of plan.model.instructions ?? []) trace.user(instruction);
  if (plan.model.resources.length > 0) return embedInstructionResources(state, context);
  trace.user(intentText(plan, state.args, redactor.client));
  trace.assistant(planText(plan, host));
  return undefined;
}

async function embedInstructionResources(state: ExecutionState, { plan, host, trace, redactor }: RunContext): Promise<void> {
  for (const uri of plan.model.resources) {
    try {
      trace.embed(await checkedResourceRead(host, uri, host));
    } catch (error) {
      trace.user(instructionResourceFailureText(uri, errorMessage(error)));
    }
  }
  trace.user(intentText(plan, state.args, redactor.client));
  trace.assistant(planText(plan, host));
}

/**
 * Runs steps from the state's position until the last completes or one stops the run, advancing
 * the state as each step (or parallel group) ends: statuses, bindings (and the secrets they
 * reveal), the position.
 */
export async function advanceExecution(state: ExecutionState, context: RunContext, hooks: WorkflowHooks): Promise<void> {
  const { plan, host, trace, redactor } = context;
  const progress = host.notifyProgress ? new WorkProgress(host.notifyProgress, plan.steps.length, redactor) : undefined;
  if (host.timing) state.timing = true;
  const runner = new StepRunner(plan, state, hooks, progress, redactor, context.steps, state.timing);
  for (const group of plan.groups) {
    if (group[0].index < state.position) continue;
    if (host.beforeStep) await beforeStep(host, state);
    if (host.signal.aborted) {
      state.statuses[group[0].index] = 'cancelled';
      state.stop = { step: group[0].index, status: 'cancelled', reason: 'the request was cancelled before this step started' };
      return;
    }
    if (group.length === 1 && group[0].asks.length === 0) {
      // The common case: one step that asks nothing.
      const stop = runner.settle(group[0], await runner.outcome(group[0], context, true), trace);
      if (stop) {
        state.stop = stop;
        return;
      }
      state.position += 1;
      if (host.checkpoint) await checkpointed(host, state);
      continue;
    }
    const groupStart = state.messages.length;
    const asking = group.some((step) => step.asks.length > 0) ? await askQuestions(group, context) : undefined;
    if (asking?.status === 'paused') {
      // The group runs from its start when the answers come: what it wrote so far goes, so the
      // resumed trace is the one an uninterrupted run writes.
      state.messages.length = groupStart;
      return;
    }
    const stop = asking
      ? await runner.stopBeforeRunning(asking.step, asking.status, asking.reason)
      : group.length === 1
        ? runner.settle(group[0], await runner.outcome(group[0], context, true), trace)
        : await runGroup(group, runner, context);
    // A run that stops keeps its answers: its handoff lists an answered argument as known.
    if (stop) {
      state.stop = stop;
      return;
    }
    if (group.some((step) => step.asks.length > 0)) state.answers = ownRecord<unknown>();
    state.position += group.length;
    if (host.checkpoint) await checkpointed(host, state);
  }
}

/** Asks the host's step-boundary hook, waiting only when it answers with a promise. */
async function beforeStep(host: Host, state: ExecutionState): Promise<void> {
  const asked = host.beforeStep!(state);
  if (isPromiseLike(asked)) await asked;
}

/** Tells the host's checkpoint hook the state, waiting only when it answers with a promise. */
async function checkpointed(host: Host, state: ExecutionState): Promise<void> {
  const told = host.checkpoint!(state);
  if (isPromiseLike(told)) await told;
}

/**
 * The `prompts/get` result of a finished run: its trace, closed by a handoff or failure message, and
 * `_meta` — every string of it redacted by the run's complete set of secrets (so a secret learned at
 * step 3 is hidden in step 1's messages too), and the whole kept within `maxTraceBytes`. The host's
 * observer hears how the run ended, as `_meta` says it.
 */
export function executionResult(state: ExecutionState, { plan, host, trace, redactor, limits }: RunContext): PromptResult {
  collectSecrets(plan, state, redactor);
  const { stop } = state;
  if (stop?.status === 'handoff') {
    trace.assistant(handoffText(plan, plan.steps[stop.step], stop.reason, state, host, redactor.client));
  } else if (stop?.status === 'cancelled' && isDeclinedReason(stop.reason)) {
    trace.user(declinedText(plan, stop.step, stop.reason));
  } else if (stop) {
    trace.user(failureText(plan.steps[stop.step].model.name, stop.reason));
  }
  const meta: ExecutionMeta = {
    status: stop ? stop.status : 'completed',
    steps: plan.steps.map((step) => stepMeta(step.model.name, state.statuses[step.index], state.flow[step.index], state.timing)),
  };
  if (stop) {
    meta.stoppedAt = plan.steps[stop.step].model.name;
    meta.reason = stop.reason;
  }
  if (state.questions.length > 0) {
    meta.rounds = state.rounds;
    meta.questions = state.questions.map(({ step, key, kind, status, attempts }) => ({ step, key, kind, status, attempts }));
  }
  const redacted = redactor.redactDeep({ description: plan.model.description, messages: state.messages, meta });
  // Reasons can quote a handler's whole error text: cut them now, after redaction, never before.
  // (Only a reason comes from outside the class: a run that stopped nowhere and kept no step's
  // reason or iterations has none to cut.)
  if (stop || hasEntries(state.flow)) redacted.meta = boundStrings(redacted.meta, MAX_MESSAGE_CHARACTERS);
  // Most results are far below the bound, and the trace knows its size as written (redaction can
  // lengthen it: then measure what is sent): check that first, and measure exactly only if it may not fit.
  const messagesBound = redactor.active ? jsonBytesBound(redacted.messages) : trace.bytesBound + 2;
  const run = runMeta(plan);
  const fits =
    messagesBound + jsonBytesBound(redacted.description) + jsonBytesBound(redacted.meta) + jsonBytesBound(run) + META_ENVELOPE_BYTES <=
    limits.maxTraceBytes;
  // _meta takes at most half the bound (its reasons cut shorter), so it cannot push the result over.
  if (!fits) redacted.meta = boundMeta(redacted.meta, limits.maxTraceBytes / 2);
  const reserved = fits
    ? 0
    : Buffer.byteLength(JSON.stringify({ description: redacted.description, _meta: { [EXECUTION_META_KEY]: redacted.meta, run } })) +
      META_ENVELOPE_BYTES;
  const bounded = fits
    ? { messages: redacted.messages }
    : boundTrace(redacted.messages, limits.maxTraceBytes, reserved, (plan.model.instructions?.length ?? 0) + 2);
  if (bounded.truncation) redacted.meta.truncated = bounded.truncation;
  host.observer?.ended(redacted.meta);
  const resultMeta: Record<string, unknown> = { [EXECUTION_META_KEY]: redacted.meta };
  if (run) resultMeta[RUN_META_KEY] = run;
  return { description: redacted.description, messages: bounded.messages, _meta: resultMeta };
}

/** What observers are told of the run as it starts or resumes on `plan` (the running version's). */
export function observedRun(plan: WorkflowPlan): ObservedRun {
  return plan.model.version === undefined ? {} : { version: plan.model.version };
}

/** `_meta["mcpflow/run"]` of a result: the version the run went on in, when its class declares one (else nothing, as before versions). */
function runMeta(plan: WorkflowPlan): ObservedRun | undefined {
  return plan.model.version === undefined ? undefined : observedRun(plan);
}

function hasEntries(record: object): boolean {
  for (const key in record) if (Object.hasOwn(record, key)) return true;
  return false;
}
