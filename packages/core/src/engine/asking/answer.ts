import { z } from 'zod';
import type { AnswerSchemaLike } from '../../model';
import { jsonMayNestTooDeeply, nestedTooDeeply } from '../results/value-depth';
import type { AskResponse } from './ask-request';
import { unmarked, type ClientText, type Question } from './question';

/** What an `askUser` without a schema or choices accepts: a string, as its form field (`type: string`) asks for. */
const DEFAULT_ANSWER_SCHEMA: AnswerSchemaLike = z.string();

/** What came of a question: a value, a refusal, or an answer that does not fit. */
export type AnswerOutcome =
  | { readonly status: 'answered'; readonly value: unknown }
  | { readonly status: 'declined' | 'cancelled' }
  | { readonly status: 'invalid'; readonly problem: string };

/**
 * Reads a client's answer to a question. The answer is untrusted input: it must be an accepted
 * elicitation whose field is one of the choices, or a sampling result with text, and it must fit
 * the ask's schema (the schema's parsed value is what the step receives). A problem that quotes
 * the answer marks it with `client`.
 */
export function readAnswer(question: Question, response: AskResponse | undefined, client: ClientText = unmarked): AnswerOutcome {
  if (response === undefined || response === null || typeof response !== 'object')
    return { status: 'invalid', problem: 'no answer came back' };
  if (question.request.method === 'sampling/createMessage') return readSampling(question, response);
  if (response.action === 'decline') return { status: 'declined' };
  if (response.action === 'cancel') return { status: 'cancelled' };
  if (response.action !== 'accept')
    return { status: 'invalid', problem: `the client answered with action ${JSON.stringify(response.action)}` };
  const content = response.content;
  if (typeof content !== 'object' || content === null || Array.isArray(content))
    return { status: 'invalid', problem: 'the accepted answer holds no form content' };
  let value: unknown = question.whole ? content : (content as Record<string, unknown>)[question.field];
  if (!question.whole && value === undefined) return { status: 'invalid', problem: `the answer has no '${question.field}'` };
  if (question.choices) {
    const choice = question.choices.find((candidate) => candidate.label === value);
    // A sensitive answer is never quoted: the problem is put to the client again and lands in _meta.
    const answer = question.ask.sensitive ? 'the answer' : client(JSON.stringify(value));
    if (!choice) return { status: 'invalid', problem: `${answer} is not one of the choices` };
    value = choice.value;
  }
  return checkSchema(question, [value], question.ask.schema ?? (question.choices ? undefined : DEFAULT_ANSWER_SCHEMA));
}

function readSampling(question: Question, response: AskResponse): AnswerOutcome {
  const blocks = Array.isArray(response.content) ? response.content : [response.content];
  const text = blocks
    .filter(
      (block): block is { type: 'text'; text: string } =>
        typeof block === 'object' && block !== null && block.type === 'text' && typeof block.text === 'string',
    )
    .map((block) => block.text)
    .join('\n')
    .trim();
  if (!text) return { status: 'invalid', problem: 'the model answered with no text' };
  if (!question.ask.schema) return { status: 'answered', value: text };
  return checkSchema(question, [...parsedJson(text), text]);
}

/** The first candidate that fits the schema, parsed by it; else the first candidate's problem. */
function checkSchema(question: Question, candidates: readonly unknown[], schema = question.ask.schema): AnswerOutcome {
  if (!schema) return { status: 'answered', value: candidates[0] };
  let problem = '';
  for (const candidate of candidates) {
    const parsed = schema.safeParse(candidate);
    if (parsed.success) return { status: 'answered', value: parsed.data };
    problem ||= issuesText(parsed.error);
  }
  return { status: 'invalid', problem };
}

/** The text as JSON, also when the model wrapped it in a Markdown code fence. */
function parsedJson(text: string): unknown[] {
  const unfenced = /^```(?:json)?\s*([\s\S]*?)\s*```$/.exec(text)?.[1] ?? text;
  let value: unknown;
  try {
    value = JSON.parse(unfenced);
  } catch {
    return [];
  }
  // Too deep to be a value any later step or the trace could carry: the text is checked instead.
  return jsonMayNestTooDeeply(unfenced) && nestedTooDeeply(value) ? [] : [value];
}

function issuesText(error: unknown): string {
  const issues = (error as { issues?: { path?: PropertyKey[]; message?: string }[] } | undefined)?.issues;
  if (!issues?.length) return 'it does not match the expected schema';
  return issues.map((issue) => `${issue.path?.length ? `${issue.path.join('.')}: ` : ''}${issue.message ?? 'invalid'}`).join('; ');
}
