import type { AnswerSchemaLike, AskModelSource, AskUserSource, DataSource } from '@mcpflow/core/model';

/** The options of `askUser`. */
export interface AskUserOptions {
  /**
   * The values to pick from: a data source giving an array (e.g. `field('pages', 'names')`). The
   * answer must be one of them; a single choice is taken without asking, an empty list hands off.
   */
  choices?: DataSource;
  /** A zod schema for the answer: one value (default `z.string()`), or a `z.object` of flat fields for a form of several. */
  schema?: AnswerSchemaLike;
  /** The form field's title (default: the step argument's name). */
  title?: string;
  /** How many times to ask when an answer fails its schema, before handing off. Default 3. */
  attempts?: number;
  /** The answer never appears in the trace (`[redacted]`). */
  sensitive?: boolean;
}

/** The options of `askModel`. */
export interface AskModelOptions {
  /** Values shown to the model after the prompt, by name; `{name}` in the prompt refers to them. */
  context?: Record<string, DataSource>;
  /** A zod schema the answer must fit: the model's text, parsed as JSON when it parses. */
  schema?: AnswerSchemaLike;
  systemPrompt?: string;
  /** Default 1000. */
  maxTokens?: number;
  /** How many times to ask when an answer fails its schema, before handing off. Default 3. */
  attempts?: number;
  /** The answer never appears in the trace (`[redacted]`). */
  sensitive?: boolean;
}

/**
 * A value the user gives while the workflow runs (MCP elicitation). The server pauses, the client
 * shows the question, and the run resumes with the answer — in place on a 2025 session, or on a
 * retry carrying a sealed `requestState` on protocol 2026-07-28. `{argument}` placeholders in the
 * message name prompt arguments.
 *
 * @example
 * ```ts
 * @Step({ tool: addTask, args: { page_id: askUser('Which page should {title} go on?', { choices: field('pages', 'ids') }) } })
 * ```
 */
export function askUser(message: string, options: AskUserOptions = {}): AskUserSource {
  return { kind: 'askUser', message, ...options };
}

/**
 * A value the client's model gives while the workflow runs (MCP sampling): the prompt, with its
 * `{placeholders}` filled from prompt arguments and `context`, then each context value under its
 * name. The answer is checked against `schema`. Sampling is deprecated in protocol 2026-07-28
 * (SEP-2577) but still served; prefer `askUser` for new workflows.
 *
 * @example
 * ```ts
 * @Step({ tool: labelIssue, args: { label: askModel('Pick one label for this issue', {
 *   context: { issue: fromStep('issue') }, schema: z.enum(['bug', 'feature', 'question']) }) } })
 * ```
 */
export function askModel(prompt: string, options: AskModelOptions = {}): AskModelSource {
  return { kind: 'askModel', prompt, ...options };
}
