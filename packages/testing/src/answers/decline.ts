/** The marker `decline()` returns; only `isDecline` looks inside. */
const DECLINE = Symbol.for('@mcpflow/testing/decline');

/** An answer that declines the question, as a user who says no (see `decline()`). */
export interface Decline {
  readonly [DECLINE]: true;
}

const declined: Decline = Object.freeze({ [DECLINE]: true as const });

/**
 * The answer of a user who declines the question (the client sends `{ action: 'decline' }`), for
 * `runWorkflow`'s `answers`: as a value, or returned by an answer function (`(question) =>
 * question.attempt > 1 ? decline() : 'x'`). Only a user's question (`askUser`) can be declined: a
 * question to the model declined this way has no answer (the client cannot sample).
 *
 * @example
 * ```ts
 * const run = await runWorkflow(AddProjectTask, { arguments, tools, answers: { 'added/project': decline() } });
 * ```
 */
export function decline(): Decline {
  return declined;
}

/** Whether an answer is `decline()`. */
export function isDecline(value: unknown): value is Decline {
  return typeof value === 'object' && value !== null && (value as Partial<Decline>)[DECLINE] === true;
}
