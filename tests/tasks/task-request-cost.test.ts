import { StateSealer } from '@mcpflow/core';
import { memoryTasks } from '@mcpflow/core/v2';
import { TaskClient } from './task-client';
import { taskServer } from './task-workflows';

/**
 * What each request of a task costs mcpflow, with a server per request (the SDK's stateless
 * serving): work done once per task or per class, not again on every poll. The answers a client
 * sees are asserted unchanged; the work is counted where it happens.
 */

const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const close of closers) await close();
});
afterEach(() => jest.restoreAllMocks());

function connect(): TaskClient {
  const store = memoryTasks();
  const { client, close } = TaskClient.inProcess(() => taskServer(store));
  closers.push(close);
  return client;
}

test('a finished task polled again and again gets the same answer, its sealed result opened once (memoryTasks)', async () => {
  const client = connect();
  const created = (await client.call('report', { project: 'atlas' })).result!;
  const first = await client.until(created.taskId as string);
  expect(first).toMatchObject({ status: 'completed', result: { structuredContent: { status: 'completed' } } });
  const open = jest.spyOn(StateSealer.prototype, 'open');
  const again = [];
  for (let poll = 0; poll < 3; poll++) again.push((await client.request('tasks/get', { taskId: created.taskId })).result);
  expect(again).toEqual([first, first, first]);
  // The first answer above already opened it: the polls after it open nothing.
  expect(open).not.toHaveBeenCalled();
});
