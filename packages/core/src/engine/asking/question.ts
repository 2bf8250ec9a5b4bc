import { z } from 'zod';
import { askInputs, parseGuidance, type AskSource, type DataSource } from '../../model';
import type { AskRequest } from './ask-request';
import { formSchema } from './form-schema';

/** A resolved value, or why there is none (the resolvers' own result shape). */
export type SourceValue = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly reason: string };

/** A question ready to send, and what is needed to read its answer. */
export interface Question {
  /** Names the question within the run and on the wire (an `inputRequests` key): `<step>/<argument>`. */
  readonly key: string;
  readonly ask: AskSource;
  readonly request: AskRequest;
  /** The question's text with its placeholders filled, for the trace and for reasons. */
  readonly text: string;
  /** The form field holding the answer, unless the answer is the whole form. */
  readonly field: string;
  readonly whole: boolean;
  /** The values offered, by the label shown for each. */
  readonly choices?: readonly { readonly label: string; readonly value: unknown }[];
}

/** A question to send; a value known without asking (a single choice); or why it cannot be asked. */
export type QuestionOutcome =
  | { readonly kind: 'question'; readonly question: Question }
  | { readonly kind: 'known'; readonly value: unknown }
  | { readonly kind: 'unanswerable'; readonly reason: string };

/** Default number of times a question is put when answers fail its schema. */
export const DEFAULT_ASK_ATTEMPTS = 3;
const DEFAULT_MAX_TOKENS = 1000;

/** Marks text the client supplied (see `Redactor.client`). */
export type ClientText = (text: string) => string;

/** Marks nothing: for a run that tells no client text apart. */
export const unmarked: ClientText = (text) => text;

/**
 * Builds the question an ask puts: its text with placeholders filled (the prompt arguments marked
 * by `client`), its form (or sampling message), and its choices read from earlier steps.
 * `rejected` is why the previous answer was refused, shown when the question is put again.
 */
export function buildQuestion(
  key: string,
  field: string,
  ask: AskSource,
  args: Readonly<Record<string, string | undefined>>,
  resolve: (source: DataSource) => SourceValue,
  rejected?: string,
  client: ClientText = unmarked,
): QuestionOutcome {
  const inputs = new Map<string, unknown>();
  for (const [option, source] of askInputs(ask)) {
    const resolved = resolve(source);
    if (!resolved.ok)
      return {
        kind: 'unanswerable',
        reason: `the question "${fillText(ask, args, client)}" cannot be put: its ${option} has no value (${resolved.reason})`,
      };
    inputs.set(option, resolved.value);
  }
  const again = rejected === undefined ? '' : `\n(The previous answer was not accepted: ${rejected}. Please answer again.)`;

  if (ask.kind === 'askModel') {
    const context = Object.keys(ask.context ?? {}).map((name) => [name, inputs.get(`context.${name}`)] as const);
    const values = new Map<string, unknown>([...argumentValues(args, client), ...context]);
    const filled = fill(ask.prompt, values);
    let text = filled;
    for (const [name, value] of context) text += `\n\n${name}:\n${display(value)}`;
    const schema = answerFormat(ask.schema);
    if (schema) text += `\n\nAnswer with only a JSON value that matches this JSON Schema: ${schema}`;
    const request: AskRequest = {
      method: 'sampling/createMessage',
      params: {
        messages: [{ role: 'user', content: { type: 'text', text: text + again } }],
        maxTokens: ask.maxTokens ?? DEFAULT_MAX_TOKENS,
        ...(ask.systemPrompt === undefined ? {} : { systemPrompt: ask.systemPrompt }),
      },
    };
    return { kind: 'question', question: { key, ask, request, text: filled, field, whole: false } };
  }

  let choices: { label: string; value: unknown }[] | undefined;
  if (ask.choices) {
    const offered = inputs.get('choices');
    if (!Array.isArray(offered))
      return { kind: 'unanswerable', reason: `the choices of "${fillText(ask, args, client)}" are not a list but ${describe(offered)}` };
    if (offered.length === 0)
      return {
        kind: 'unanswerable',
        reason: `there is nothing to choose from for "${fillText(ask, args, client)}": its choices are an empty list`,
      };
    if (offered.length === 1) return { kind: 'known', value: offered[0] };
    choices = labelled(offered);
  }
  const { form, whole } = formSchema(
    field,
    ask.title ?? field,
    ask.schema,
    choices?.map((choice) => choice.label),
  );
  const text = fillText(ask, args, client);
  const request: AskRequest = { method: 'elicitation/create', params: { message: text + again, requestedSchema: form } };
  return { kind: 'question', question: { key, ask, request, text, field, whole, choices } };
}

/** An ask's text with the prompt arguments filled in, marked by `client` (an askModel's context entries stay as written). */
export function fillText(ask: AskSource, args: Readonly<Record<string, string | undefined>>, client: ClientText = unmarked): string {
  return fill(ask.kind === 'askUser' ? ask.message : ask.prompt, new Map(argumentValues(args, client)));
}

function argumentValues(args: Readonly<Record<string, string | undefined>>, client: ClientText): [string, string | undefined][] {
  return Object.keys(args).map((name) => [name, args[name] === undefined ? undefined : client(args[name])]);
}

function fill(template: string, values: ReadonlyMap<string, unknown>): string {
  return parseGuidance(template)
    .map((part) =>
      part.kind === 'text'
        ? part.text
        : values.has(part.name) && values.get(part.name) !== undefined
          ? display(values.get(part.name))
          : `{${part.name}}`,
    )
    .join('');
}

function display(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Labels for the choices: strings as they are, other values as JSON, made unique. */
function labelled(values: readonly unknown[]): { label: string; value: unknown }[] {
  const seen = new Set<string>();
  return values.map((value) => {
    let label = display(value);
    for (let index = 2; seen.has(label); index += 1) label = `${display(value)} (${index})`;
    seen.add(label);
    return { label, value };
  });
}

function answerFormat(schema: AskSource['schema']): string | undefined {
  if (!schema || !('_zod' in schema)) return undefined;
  try {
    const json = z.toJSONSchema(schema as unknown as z.ZodType, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
    delete json.$schema;
    return json.type === 'string' && Object.keys(json).length === 1 ? undefined : JSON.stringify(json);
  } catch {
    return undefined;
  }
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
