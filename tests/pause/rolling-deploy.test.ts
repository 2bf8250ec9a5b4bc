import type { GetPromptResult } from '@modelcontextprotocol/server';
import { getPrompt, manualClient, paused, startInstance, stopInstances, type Instance } from './instances';

/**
 * A rolling deploy through real processes (DESIGN §2.16): a prompt run pauses on an instance serving
 * version 1 of add_project_task (protocol 2026-07-28, stateless HTTP), that instance stops, an
 * instance of version 2 starts with the same pause.keys, and the client's retry goes on there. Each
 * process counts its own tool calls, which tell which steps ran after the deploy.
 */
const KEY = 'the fleet-wide state key of the rolling deploy, 32+ bytes';
const args = { project: 'mcp tester', task: 'Fix the login bug' };
const answer = { 'added/project': { action: 'accept', content: { project: 'MCP Tester (archive)' } } };
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});
afterAll(stopInstances);

/** Pauses a run on version 1, stops that instance, starts `next` and retries there: the retry's answer, and what ran on `next`. */
async function deploy(next: 'appended' | 'inserted' | 'inserted-previous'): Promise<{ retry: Promise<unknown>; v2: Instance }> {
  const v1 = await startInstance({ keys: [KEY] });
  const first = paused(await getPrompt(await manualClient(v1.url, closers), { name: 'add_project_task', arguments: args }));
  expect(Object.keys(first.inputRequests ?? {})).toEqual(['added/project']);
  await Promise.all(closers.splice(0).map((close) => close()));
  await v1.stop();
  const v2 = await startInstance({ keys: [KEY], version: next });
  const client = await manualClient(v2.url, closers);
  const retry = getPrompt(client, { name: 'add_project_task', arguments: args, inputResponses: answer, requestState: first.requestState });
  return { retry, v2 };
}

test('a step appended after the question: the paused run resumes on v2 and runs it too', async () => {
  const { retry, v2 } = await deploy('appended');
  const final = (await retry) as GetPromptResult;
  expect(final._meta?.['mcpflow/execution']).toMatchObject({ status: 'completed' });
  expect(final.messages.at(-1)).toEqual({ role: 'user', content: { type: 'text', text: 'Result of audit:\naudited Fix the login bug' } });
  expect(await v2.counts()).toMatchObject({ list_pages: 0, add_task: 1, audit: 1 });
}, 60_000);

test('a step inserted before the question, without previous: refused, naming the workflow and the step it waited at; nothing runs', async () => {
  const { retry, v2 } = await deploy('inserted');
  await expect(retry).rejects.toThrow(/another version of workflow 'add_project_task', waiting at step 'added'.*previous/);
  expect(await v2.counts()).toMatchObject({ list_pages: 0, add_task: 0, audit: 0 });
}, 60_000);

test('a step inserted before the question, with version 1 kept in previous: the run finishes on version 1', async () => {
  const { retry, v2 } = await deploy('inserted-previous');
  const final = (await retry) as GetPromptResult;
  expect(final._meta?.['mcpflow/execution']).toMatchObject({ status: 'completed' });
  expect(await v2.counts()).toMatchObject({ list_pages: 0, add_task: 1, audit: 0 });
  // A new run on the same instance starts on version 2: its inserted step runs before the question.
  paused(await getPrompt(await manualClient(v2.url, closers), { name: 'add_project_task', arguments: args }));
  expect(await v2.counts()).toMatchObject({ list_pages: 1, add_task: 1, audit: 1 });
}, 60_000);
