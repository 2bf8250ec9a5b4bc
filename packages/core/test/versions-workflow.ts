import { z } from 'zod';
import { Bind, Step, Workflow, askUser, field, promptArg } from '@mcpflow/decorators';
import { MemoryReplayGuard } from '../src/adapter-kit/pause/memory-replay-guard';
import { StateSealer, type AskChannel, type AskResponse, type Host, type HostTool } from '../src/engine';

/** The key the fixtures of `fixtures/sealed-*.json` were sealed with (a test key, nothing else's). */
export const FIXTURE_KEY = 'the key that sealed the fixtures of mcpflow 0.x, for tests only';
/** The clock the fixtures were sealed at: opening them at the same instant keeps them from expiring. */
export const FIXTURE_NOW = Date.UTC(2026, 10, 28, 12, 0, 0);

export const fixtureArgs = { project: 'mcp', task: 'Fix login', token: 'tok_SECRET_42' };

/** Version 1 of the workflow the fixtures were sealed by: list pages, ask which, add the task, notify. */
@Workflow({
  name: 'add_project_task',
  description: 'Add a task',
  arguments: { project: z.string(), task: z.string(), token: z.string() },
  sensitiveArguments: ['token'],
})
export class AddProjectTaskV1 {
  @Step({ tool: 'list_pages', args: { query: promptArg('project') }, guidance: 'Finding {project}.' })
  @Bind('pages')
  pages!: { names: string[] };

  @Step({
    tool: 'add_task',
    args: {
      page: askUser('Which page for {task}?', { choices: field('pages', 'names'), attempts: 2 }),
      task: promptArg('task'),
      token: promptArg('token'),
    },
    guidance: 'Adding {task}.',
  })
  @Bind('added')
  added!: unknown;

  @Step({ tool: 'notify', args: { page: field('added', 'page') } })
  notified!: unknown;
}

interface FakeTool extends HostTool {
  run(args: Record<string, unknown>): unknown;
}

/** A host over plain tools that records the calls; `checkpoint` is told each completed step's state. */
export function versionsHost(asking: AskChannel | undefined, calls: string[], checkpoint?: Host['checkpoint']): Host<FakeTool> {
  const tool = (name: string, run: (input: Record<string, unknown>) => unknown): FakeTool => ({
    enabled: true,
    run: (input) => (calls.push(name), run(input)),
  });
  const tools: Record<string, FakeTool> = {
    list_pages: tool('list_pages', () => ({ names: ['MCP Tester', 'MCP Tester (archive)'] })),
    add_task: tool('add_task', (input) => ({ page: input.page, task: input.task })),
    audit: tool('audit', (input) => ({ audited: input.page })),
    notify: tool('notify', (input) => `notified ${String(input.page)}`),
  };
  return {
    signal: new AbortController().signal,
    findTool: (name) => tools[name],
    toolInputs: () => [],
    validateToolInput: (_tool, _name, input) => ({ ok: true, args: input }),
    invokeTool: (found, _name, input) => found.run(input as Record<string, unknown>),
    checkToolResult: (_tool, _name, value) => ({
      content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }],
    }),
    readResource: () => Promise.reject(new Error('no resources')),
    asking,
    ...(checkpoint && { checkpoint }),
  };
}

export const rounds = (responses?: Record<string, AskResponse>): AskChannel => ({ mode: 'rounds', supports: () => true, responses });
export const accept = (page: string): AskResponse => ({ action: 'accept', content: { page } });

/** A sealer at the fixtures' instant, and a fresh replay guard. */
export function fixturePausing(): { sealer: StateSealer; replayGuard: MemoryReplayGuard } {
  return { sealer: new StateSealer({ keys: [FIXTURE_KEY] }, () => FIXTURE_NOW), replayGuard: new MemoryReplayGuard() };
}
