import type { AskSource } from '../../model';
import type { Question } from './question';

/** The question as the trace shows it: the text put, and the choices offered. */
export function questionText(question: Question): string {
  if (question.request.method === 'sampling/createMessage')
    return `Question for the model: ${question.request.params.messages[0].content.text}`;
  const choices = question.choices ? `\nChoices: ${question.choices.map((choice) => choice.label).join(', ')}` : '';
  return `Question for the user: ${question.text}${choices}`;
}

/** The answer as the trace shows it, marked by `client` as the client's own text. */
export function answerText(ask: AskSource, value: unknown, client: (text: string) => string): string {
  return `${ask.kind === 'askUser' ? 'The user' : 'The model'} answered: ${client(typeof value === 'string' ? value : JSON.stringify(value))}`;
}

/** A question's text, quoted, for reasons and handoffs: `"Which page?"`. */
export function quoted(question: Question): string {
  return `"${question.text}"`;
}

const DECLINED = 'declined by the user: ';

/** Why a run ends when the user declines (or cancels) a question: `declined by the user: "Which page?"`. */
export function declinedReason(question: Question): string {
  return `${DECLINED}${quoted(question)}`;
}

/** Whether a run's (or a sub-workflow's) stop reason is a user's decline. */
export function isDeclinedReason(reason: unknown): reason is string {
  return typeof reason === 'string' && reason.startsWith(DECLINED);
}
