import { z } from 'zod';
import type { DataSource } from '@mcpflow/core/model';
import { askModel, askUser, constant, field, fromStep } from '@mcpflow/decorators';
import { buildQuestion, type Question, type SourceValue } from '../src/engine/asking/question';
import { readAnswer } from '../src/engine/asking/answer';

const pages = [
  { id: 'p1', name: 'Roadmap' },
  { id: 'p2', name: 'Roadmap (archive)' },
];
const bindings: Record<string, unknown> = { pages: { names: ['Roadmap', 'Roadmap (archive)'], all: pages, one: ['Only'], none: [] } };
const resolve = (source: DataSource): SourceValue => {
  if (source.kind === 'constant') return { ok: true, value: source.value };
  if (source.kind === 'fromStep')
    return source.binding in bindings
      ? { ok: true, value: bindings[source.binding] }
      : { ok: false, reason: `binding '${source.binding}' has no value yet` };
  if (source.kind === 'field') return { ok: true, value: (bindings[source.binding] as Record<string, unknown>)[source.path] };
  return { ok: false, reason: 'unsupported' };
};
const args = { project: 'Website', title: 'Ship it' };

function question(
  ...parameters: Parameters<typeof buildQuestion> extends [unknown, unknown, infer A, ...unknown[]] ? [A, string?] : never
): Question {
  const [ask, rejected] = parameters;
  const outcome = buildQuestion('add/page', 'page', ask, args, resolve, rejected);
  if (outcome.kind !== 'question') throw new Error(`no question: ${JSON.stringify(outcome)}`);
  return outcome.question;
}

describe('building a question', () => {
  test('askUser with choices from an earlier step: a one-field form with an enum, placeholders filled', () => {
    const asked = question(askUser('Which page of {project} gets {title}?', { choices: field('pages', 'names') }));
    expect(asked.request).toEqual({
      method: 'elicitation/create',
      params: {
        message: 'Which page of Website gets Ship it?',
        requestedSchema: {
          type: 'object',
          properties: { page: { type: 'string', title: 'page', enum: ['Roadmap', 'Roadmap (archive)'] } },
          required: ['page'],
        },
      },
    });
  });

  test('choices that are objects are offered by their JSON and answered with the object', () => {
    const asked = question(askUser('Which page?', { choices: field('pages', 'all') }));
    const label = JSON.stringify(pages[1]);
    expect(asked.request.params).toMatchObject({ requestedSchema: { properties: { page: { enum: [JSON.stringify(pages[0]), label] } } } });
    expect(readAnswer(asked, { action: 'accept', content: { page: label } })).toEqual({ status: 'answered', value: pages[1] });
  });

  test('a single choice is taken without asking; none, or choices not yet known, cannot be asked', () => {
    expect(buildQuestion('k', 'page', askUser('Which?', { choices: field('pages', 'one') }), args, resolve)).toEqual({
      kind: 'known',
      value: 'Only',
    });
    expect(buildQuestion('k', 'page', askUser('Which?', { choices: field('pages', 'none') }), args, resolve)).toEqual({
      kind: 'unanswerable',
      reason: 'there is nothing to choose from for "Which?": its choices are an empty list',
    });
    expect(buildQuestion('k', 'page', askUser('Which?', { choices: fromStep('later') }), args, resolve)).toEqual({
      kind: 'unanswerable',
      reason: 'the question "Which?" cannot be put: its choices has no value (binding \'later\' has no value yet)',
    });
  });

  test('a zod object schema asks a form of several primitive fields; a scalar schema types the one field', () => {
    const form = question(
      askUser('Details?', {
        schema: z.object({ due: z.iso.date(), points: z.number().int().min(1).max(13), urgent: z.boolean().optional() }),
      }),
    );
    expect(form.request.params).toMatchObject({
      requestedSchema: {
        type: 'object',
        properties: {
          due: { type: 'string', format: 'date' },
          points: { type: 'integer', minimum: 1, maximum: 13 },
          urgent: { type: 'boolean' },
        },
        required: ['due', 'points'],
      },
    });
    expect(readAnswer(form, { action: 'accept', content: { due: '2026-12-01', points: 3 } })).toEqual({
      status: 'answered',
      value: { due: '2026-12-01', points: 3 },
    });
    const scalar = question(askUser('Points?', { schema: z.number().describe('Story points'), title: 'Points' }));
    expect(scalar.request.params).toMatchObject({
      requestedSchema: { properties: { page: { type: 'number', title: 'Points', description: 'Story points' } } },
    });
  });

  test('askModel: prompt, context values and the answer schema in one user message', () => {
    const asked = question(
      askModel('Pick the page for {title} among {pages}', {
        context: { pages: field('pages', 'names') },
        schema: z.enum(['Roadmap', 'Roadmap (archive)']),
        maxTokens: 50,
        systemPrompt: 'Be brief.',
      }),
    );
    expect(asked.request).toEqual({
      method: 'sampling/createMessage',
      params: {
        messages: [
          {
            role: 'user',
            content: {
              type: 'text',
              text:
                'Pick the page for Ship it among ["Roadmap","Roadmap (archive)"]\n\npages:\n["Roadmap","Roadmap (archive)"]\n\n' +
                'Answer with only a JSON value that matches this JSON Schema: {"type":"string","enum":["Roadmap","Roadmap (archive)"]}',
            },
          },
        ],
        maxTokens: 50,
        systemPrompt: 'Be brief.',
      },
    });
  });

  test('a question put again says why the previous answer was refused', () => {
    const asked = question(askUser('Points?', { schema: z.number() }), 'expected number, received string');
    expect(asked.request.params).toMatchObject({
      message: 'Points?\n(The previous answer was not accepted: expected number, received string. Please answer again.)',
    });
  });
});

describe('reading an answer', () => {
  const pick = () => question(askUser('Which page?', { choices: field('pages', 'names') }));

  test('accept, decline and cancel', () => {
    expect(readAnswer(pick(), { action: 'accept', content: { page: 'Roadmap' } })).toEqual({ status: 'answered', value: 'Roadmap' });
    expect(readAnswer(pick(), { action: 'decline' })).toEqual({ status: 'declined' });
    expect(readAnswer(pick(), { action: 'cancel' })).toEqual({ status: 'cancelled' });
  });

  test('a refused answer to a sensitive question is not quoted', () => {
    const secret = question(askUser('Which page?', { choices: field('pages', 'names'), sensitive: true }));
    expect(readAnswer(secret, { action: 'accept', content: { page: 'hunter2' } })).toEqual({
      status: 'invalid',
      problem: 'the answer is not one of the choices',
    });
  });

  test('untrusted answers: not a choice, missing field, no content, odd action, nothing', () => {
    expect(readAnswer(pick(), { action: 'accept', content: { page: 'Other' } })).toEqual({
      status: 'invalid',
      problem: '"Other" is not one of the choices',
    });
    expect(readAnswer(pick(), { action: 'accept', content: {} })).toEqual({ status: 'invalid', problem: "the answer has no 'page'" });
    expect(readAnswer(pick(), { action: 'accept' })).toEqual({ status: 'invalid', problem: 'the accepted answer holds no form content' });
    expect(readAnswer(pick(), { action: 'maybe' })).toEqual({ status: 'invalid', problem: 'the client answered with action "maybe"' });
    expect(readAnswer(pick(), undefined)).toEqual({ status: 'invalid', problem: 'no answer came back' });
  });

  test('the schema checks and parses the answer', () => {
    const points = question(askUser('Points?', { schema: z.coerce.number().int().max(13) }));
    expect(readAnswer(points, { action: 'accept', content: { page: '8' } })).toEqual({ status: 'answered', value: 8 });
    expect(readAnswer(points, { action: 'accept', content: { page: 21 } })).toEqual({
      status: 'invalid',
      problem: expect.stringContaining('13'),
    });
  });

  test('without a schema, askUser asks for a string and takes nothing else; choices keep their own values', () => {
    const free = question(askUser('Which page?'));
    expect(free.request.params).toMatchObject({ requestedSchema: { properties: { page: { type: 'string' } }, required: ['page'] } });
    expect(readAnswer(free, { action: 'accept', content: { page: 'Roadmap' } })).toEqual({ status: 'answered', value: 'Roadmap' });
    for (const other of [42, true, ['Roadmap'], { name: 'Roadmap' }, null])
      expect(readAnswer(free, { action: 'accept', content: { page: other } })).toEqual({
        status: 'invalid',
        problem: expect.stringMatching(/^Invalid input: expected string, received /),
      });
    const objects = question(askUser('Which page?', { choices: field('pages', 'all') }));
    expect(readAnswer(objects, { action: 'accept', content: { page: JSON.stringify(pages[0]) } })).toEqual({
      status: 'answered',
      value: pages[0],
    });
  });

  test('sampling: text, JSON (also fenced) checked against the schema', () => {
    const free = question(askModel('Summarize'));
    expect(readAnswer(free, { role: 'assistant', content: { type: 'text', text: '  A summary. ' }, model: 'm' })).toEqual({
      status: 'answered',
      value: 'A summary.',
    });
    const typed = question(askModel('Label', { schema: z.object({ label: z.enum(['bug', 'feature']) }) }));
    expect(readAnswer(typed, { content: { type: 'text', text: '```json\n{"label":"bug"}\n```' } })).toEqual({
      status: 'answered',
      value: { label: 'bug' },
    });
    expect(readAnswer(typed, { content: [{ type: 'text', text: '{"label":"chore"}' }] })).toEqual({
      status: 'invalid',
      problem: expect.stringMatching(/^label: /),
    });
    expect(readAnswer(typed, { content: { type: 'image', data: 'x', mimeType: 'image/png' } })).toEqual({
      status: 'invalid',
      problem: 'the model answered with no text',
    });
    const enumerated = question(askModel('Pick', { schema: z.enum(['a', 'b']) }));
    expect(readAnswer(enumerated, { content: { type: 'text', text: 'b' } })).toEqual({ status: 'answered', value: 'b' });
  });

  test('constant choices work like read ones', () => {
    const asked = question(askUser('Priority?', { choices: constant(['low', 'high']) }));
    expect(readAnswer(asked, { action: 'accept', content: { page: 'high' } })).toEqual({ status: 'answered', value: 'high' });
  });
});
