import type { AskRequest, AskResponse } from '@mcpflow/core';
import type { AnswerBook } from './answer-book';

/**
 * A client's handler for a question sent during the request (a 2025 session): finds the
 * question's key in the request's `_meta` and answers from the book. A question to the model that
 * has no answer is an error the server reports in its handoff.
 *
 * @example
 * ```ts
 * client.setRequestHandler('elicitation/create', (request) => answerInPlace(book, request, QUESTION_META_KEY));
 * ```
 */
export async function answerInPlace(
  book: AnswerBook,
  request: { method: string; params: Record<string, unknown> },
  questionMetaKey: string,
): Promise<AskResponse> {
  const key = ((request.params._meta as Record<string, { key?: unknown } | undefined> | undefined)?.[questionMetaKey]?.key ?? '') as string;
  const response = await book.respond(key, request as unknown as AskRequest);
  if (response === undefined) throw new Error(`runWorkflow has no answer for the question '${key}': give one in answers['${key}']`);
  return response;
}
