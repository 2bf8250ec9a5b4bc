import { equals, field, fromStep, item, not, oneOf, present, promptArg } from '@mcpflow/decorators';
import { planCondition } from '../src/engine/plan/plan-condition';
import { WorkProgress } from '../src/engine/execution/report-step';
import type { PlannedStep } from '../src/engine/plan/plan-workflow';
import type { ProgressUpdate } from '../src/engine/host';
import { Redactor } from '../src/engine/redaction/redactor';

const scope = {
  args: { mode: 'full', empty: '' } as Record<string, string | undefined>,
  bindings: { ticket: { priority: 'high', tags: [], owner: null, meta: { a: [1, 2] } } } as Record<string, unknown>,
  iteration: { index: 0, item: { labels: ['bug'], title: 'x' } },
};

describe('planCondition', () => {
  test.each([
    ['equals a prompt argument', equals(promptArg('mode'), 'full'), true],
    ['equals compares objects by content', equals(field('ticket', 'meta'), { a: [1, 2] }), true],
    ['equals a different value', equals(field('ticket', 'priority'), 'low'), false],
    ['oneOf', oneOf(field('ticket', 'priority'), ['low', 'high']), true],
    ['oneOf without a match', oneOf(promptArg('mode'), ['summary']), false],
    ['present: a value', present(item('labels')), true],
    ['present: an empty array', present(field('ticket', 'tags')), false],
    ['present: null', present(field('ticket', 'owner')), false],
    ['present: an empty string', present(promptArg('empty')), false],
    ['present: a missing argument', present(promptArg('absent')), false],
    ['present: a binding not bound', present(fromStep('later')), false],
    ['a missing source equals nothing', equals(fromStep('later'), null), false],
    ['not', not(present(fromStep('later'))), true],
    ['not not', not(not(equals(promptArg('mode'), 'full'))), true],
  ])('%s', (_label, condition, expected) => {
    expect(planCondition(condition).holds(scope)).toBe(expected);
  });

  test('reads as written, and knows when it reads the element', () => {
    const planned = planCondition(not(oneOf(item('labels.0'), ['bug', 'feature'])));
    expect(planned.text).toBe(`not(oneOf(item('labels.0'), ["bug","feature"]))`);
    expect(planned.readsItem).toBe(true);
    expect(planCondition(equals(field('ticket', 'priority'), 'high')).readsItem).toBe(false);
  });
});

describe('WorkProgress', () => {
  const step = (index: number, name: string) => ({ index, model: { name } }) as unknown as PlannedStep;

  test('counts planned work: a loop replaces its one unit by its elements, and progress always increases', async () => {
    const updates: ProgressUpdate[] = [];
    const progress = new WorkProgress(async (update) => void updates.push(update), 3, new Redactor());
    const [list, loop, last] = [step(0, 'list'), step(1, 'loop'), step(2, 'last')];
    await progress.started(list);
    await progress.finished(list, 'completed');
    await progress.started(loop);
    progress.planned(3);
    for (let index = 0; index < 3; index += 1) await progress.iterationFinished(loop, index, 3);
    await progress.finished(loop, 'completed');
    await progress.started(last);
    await progress.finished(last, 'completed');
    expect(updates.map(({ progress: done, total }) => [done, total])).toEqual([
      [0.5, 3],
      [1, 3],
      [1.5, 3],
      [2, 5],
      [3, 5],
      [4, 5],
      [4.5, 5],
      [5, 5],
    ]);
  });

  test('an empty loop counts as the one unit it was planned as', async () => {
    const updates: ProgressUpdate[] = [];
    const progress = new WorkProgress(async (update) => void updates.push(update), 1, new Redactor());
    const loop = step(0, 'loop');
    await progress.started(loop);
    progress.planned(0);
    await progress.finished(loop, 'completed');
    expect(updates.map(({ progress: done, total }) => [done, total])).toEqual([
      [0.5, 1],
      [1, 1],
    ]);
  });
});
