import type { AskRequest, AskResponse } from '@mcpflow/core';
import type { Answer, AskedQuestion } from '../run-options';
import { isDecline } from './decline';

/** The name a sampling answer says it came from. */
const MODEL = 'mcpflow-testing';

/**
 * Answers a run's questions from `runWorkflow`'s `answers`, by question key, as a client would: an
 * answer to a user's question is sent as an accepted form (its field filled, or the whole form
 * when the answer is an object; a choice by its label), an answer to the model as the model's text.
 * A user's question answered `decline()`, or without an answer, is declined; a question to the
 * model without one has no response (`undefined`): the line's client then reports that it cannot
 * answer it.
 *
 * @example
 * ```ts
 * const book = new AnswerBook({ 'added/project': 'MCP Tester' });
 * await book.respond('added/project', request); // { action: 'accept', content: { project: 'MCP Tester' } }
 * ```
 */
export class AnswerBook {
  private readonly attempts = new Map<string, number>();

  constructor(private readonly answers: Readonly<Record<string, Answer>> = {}) {}

  /** Whether `answers` has an entry for the question key (a value, `decline()` or a function). */
  has(key: string): boolean {
    return Object.hasOwn(this.answers, key);
  }

  async respond(key: string, request: AskRequest): Promise<AskResponse | undefined> {
    const question = this.question(key, request);
    const given = Object.hasOwn(this.answers, key) ? this.answers[key] : undefined;
    const answered: unknown = typeof given === 'function' ? await (given as (asked: AskedQuestion) => unknown)(question) : given;
    const value = isDecline(answered) ? undefined : answered;
    if (request.method === 'elicitation/create')
      return value === undefined
        ? { action: 'decline' }
        : { action: 'accept', content: formContent(value, request.params.requestedSchema) };
    if (value === undefined) return undefined;
    return { role: 'assistant', model: MODEL, content: { type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) } };
  }

  private question(key: string, request: AskRequest): AskedQuestion {
    const attempt = (this.attempts.get(key) ?? 0) + 1;
    this.attempts.set(key, attempt);
    if (request.method === 'sampling/createMessage')
      return { key, kind: 'askModel', text: request.params.messages.map((message) => message.content.text).join('\n'), attempt };
    const choices = choiceField(request.params.requestedSchema)?.choices;
    return { key, kind: 'askUser', text: request.params.message, ...(choices ? { choices } : {}), attempt };
  }
}

type Form = Extract<AskRequest, { method: 'elicitation/create' }>['params']['requestedSchema'];

/** The form's one field, when it is a choice among labels. */
function choiceField(form: Form): { name: string; choices: string[] } | undefined {
  const fields = Object.entries(form.properties);
  const [name, property] = fields[0] ?? [];
  return fields.length === 1 && Array.isArray(property?.enum) ? { name: name!, choices: property.enum as string[] } : undefined;
}

/** A form filled with an answer: a choice by its label, an object as the whole form, any other value in the form's one field. */
function formContent(value: unknown, form: Form): Record<string, unknown> {
  const choice = choiceField(form);
  if (choice) return { [choice.name]: typeof value === 'string' ? value : JSON.stringify(value) };
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  const [field = 'value'] = Object.keys(form.properties);
  return { [field]: value };
}
