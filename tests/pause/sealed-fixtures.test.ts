import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/server';
import { WorkflowServer } from '@mcpflow/core/v2';
import { AddProjectTaskV1, FIXTURE_KEY, FIXTURE_NOW, fixtureArgs } from '../../packages/core/test/versions-workflow';
import { RawTaskWire } from '../helpers/raw-task-wire';

/**
 * mcpflow's own upgrades (DESIGN §2.16): a `requestState` sealed by an earlier release — format 2
 * (before versions) and this release's format 3 — resumes through today's server, over the real
 * 2026-07-28 wire of SDK 2.x (SDK 1.x serves the 2025 protocol only, and seals nothing). The clock
 * is set to the instant the fixtures were sealed, so they have not expired; only `Date` is faked.
 */
const FIXTURES = join(__dirname, '../../packages/core/test/fixtures');
const stateOf = (file: string) =>
  (JSON.parse(readFileSync(join(FIXTURES, file), 'utf8')) as { promptPause: { requestState: string } }).promptPause.requestState;

beforeAll(() => {
  jest.useFakeTimers({
    now: FIXTURE_NOW,
    doNotFake: [
      'hrtime',
      'nextTick',
      'performance',
      'queueMicrotask',
      'setImmediate',
      'clearImmediate',
      'setInterval',
      'clearInterval',
      'setTimeout',
      'clearTimeout',
    ],
  });
});
afterAll(() => jest.useRealTimers());

function server(calls: string[]): McpServer {
  const built = new WorkflowServer({ name: 'projects', version: '1.0.0' }, { pause: { keys: [FIXTURE_KEY] } });
  const json = (value: unknown) => ({ content: [{ type: 'text' as const, text: JSON.stringify(value) }] });
  built.registerTool('list_pages', { inputSchema: z.object({ query: z.string() }) }, async () => {
    calls.push('list_pages');
    return json({ names: ['MCP Tester', 'MCP Tester (archive)'] });
  });
  built.registerTool('add_task', { inputSchema: z.object({ page: z.string(), task: z.string(), token: z.string() }) }, async ({ page }) => {
    calls.push('add_task');
    return json({ page });
  });
  built.registerTool('notify', { inputSchema: z.object({ page: z.string() }) }, async () => {
    calls.push('notify');
    return json('notified');
  });
  return built.use(AddProjectTaskV1);
}

test.each([
  ['sealed-before-versions.json', 'format 2, sealed before versions'],
  ['sealed-by-this-release.json', 'format 3, sealed by this release'],
])('a prompt run paused by an earlier release (%s: %s) resumes where it waited', async (file) => {
  const calls: string[] = [];
  const { client, close } = RawTaskWire.inProcess(() => server(calls));
  try {
    const resumed = await client.request(
      'prompts/get',
      {
        name: 'add_project_task',
        arguments: fixtureArgs,
        inputResponses: { 'added/page': { action: 'accept', content: { page: 'MCP Tester' } } },
        requestState: stateOf(file),
      },
      { tasks: false },
    );
    expect(resumed.error).toBeUndefined();
    expect(resumed.result?._meta).toMatchObject({ 'mcpflow/execution': { status: 'completed', rounds: 1 } });
    expect(calls).toEqual(['add_task', 'notify']);
  } finally {
    await close();
  }
});
