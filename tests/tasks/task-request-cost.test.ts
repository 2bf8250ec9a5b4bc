import { StateSealer } from '@mcpflow/core';
import { memoryTasks } from '@mcpflow/core/v2';
import { TaskClient } from './task-client';
import { taskServer } from './task-workflows';

/**
 * What a task's requests cost mcpflow with memoryTasks, through the SDK's stateless serving (a
 * server per request): what this process sealed when the round finished is not opened again by
 * `tasks/get`. The answers a client sees are asserted; the work is counted where it happens.
 */

const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const close of closers) await close();
});
afterEach(() => jest.restoreAllMocks());

test('a completed task: tasks/get inlines its result without opening what the round sealed, the same answer on every poll (memoryTasks)', async () => {
  const store = memoryTasks();
  const { client, close } = TaskClient.inProcess(() => taskServer(store));
  closers.push(close);
  const open = jest.spyOn(StateSealer.prototype, 'open');
  const created = (await client.call('report', { project: 'atlas' })).result!;
  const done = await client.until(created.taskId as string);
  expect(done).toMatchObject({
    status: 'completed',
    result: { structuredContent: { status: 'completed', outputs: { figures: { total: expect.any(Number) } } } },
  });
  const again = (await client.request('tasks/get', { taskId: created.taskId })).result;
  expect(again).toEqual(done);
  // The round opened the call it runs; no tasks/get opened the sealed result.
  const openedResults = open.mock.results.filter(({ value }) => typeof value === 'object' && value !== null && 'result' in value);
  expect(openedResults).toEqual([]);
});
