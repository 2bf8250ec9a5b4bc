import { readWorkflowModel, workflowFaces, type WorkflowClass } from '@mcpflow/core';
import { AnswerBook } from './answers/answer-book';
import { RunWorkflowOptionError } from './errors/run-workflow-option-error';
import type { LineResult, LineRun } from './lines/line-run';
import { loadLine } from './lines/load-line';
import type { RunWorkflowOptions, ToolCall, WorkflowRun } from './run-options';
import { checkRunKeys } from './strict/check-run-keys';
import { rememberRun } from './recorded-runs';

const PROTOCOLS = ['2025-11-25', '2026-07-28'] as const;

/**
 * Runs a workflow class as a client would: serves it on a `WorkflowServer` of the SDK line (2 by
 * default, with `serverOptions`) with stub tools and resources, and calls `prompts/get` (or, with
 * `face: 'tool'`, `tools/call`) through that line's real `Client` in memory. It checks, before
 * anything runs and in this order: the class's own wiring (its `WorkflowDefinitionError`, code
 * 910xx, naming the binding or argument), then the stub and answer keys, then that every tool and
 * resource the workflow names by string has a stub (`UnregisteredToolError` 91016, as `connect()`).
 * One stub map may serve several workflows: a stub for a tool or resource another workflow in the
 * process uses, or a `defineTool`/`defineResource` definition declares, is accepted. Strict for
 * the rest: a stub named for nothing known, or an answer key no question of the workflow has,
 * rejects with `UnknownRunKeyError` (naming the closest known name), so a typo never lets a real
 * handler run. Questions (`askUser`, `askModel`) are answered from `answers`, by question
 * key: in place on a 2025 session, by rounds (`input_required`, then a retry with the answers and
 * the `requestState`) on protocol 2026-07-28, the default on SDK 2.x. Resolves to what the client
 * saw and what the run did; rejects with the class's `WorkflowDefinitionError` (its `code` set)
 * when the class is broken, and with the client's error when the server refuses the request (an
 * argument missing, say). Any test runner: it uses none of a runner's globals.
 *
 * @example
 * ```ts
 * import { runWorkflow } from '@mcpflow/testing';
 *
 * const run = await runWorkflow(AddProjectTask, {
 *   arguments: { project: 'mcp tester', task: 'Fix the login bug' },
 *   tools: { add_task: ({ page, task }) => `Added '${task}' to ${page}.` },
 *   answers: { 'added/page': 'MCP Tester' }, // or decline()
 * });
 * assert.equal(run.status, 'completed');
 * assert.deepEqual(run.calls.at(-1), { tool: 'add_task', arguments: { page: 'MCP Tester', task: 'Fix the login bug' } });
 * ```
 */
export async function runWorkflow(target: WorkflowClass, options: RunWorkflowOptions): Promise<WorkflowRun> {
  return executeRun(target, options, undefined);
}

/**
 * `runWorkflow`, or with `rerun` the rerun of a run it recorded (`mcpflow/rerun`, see `rerun()`):
 * the run is remembered with its class and options, so it can be rerun in turn.
 */
export async function executeRun(target: WorkflowClass, options: RunWorkflowOptions, rerun: LineRun['rerun']): Promise<WorkflowRun> {
  const { sdk, protocol } = lineOf(options);
  const face = options.face ?? 'prompt';
  const name = faceName(target, face);
  const runOnLine: (run: LineRun) => Promise<LineResult> =
    sdk === 1 ? (await loadLine(1, () => import('./lines/sdk-1'))).runOnSdk1 : (await loadLine(2, () => import('./lines/sdk-2'))).runOnSdk2;
  const calls: ToolCall[] = [];
  let outputs: Record<string, unknown> = {};
  const { messages, meta, runId } = await runOnLine({
    target,
    face,
    name,
    serverOptions: options.serverOptions ?? {},
    args: options.arguments ?? {},
    stubs: { tools: options.tools ?? {}, resources: options.resources ?? {} },
    answers: new AnswerBook(options.answers),
    protocol,
    task: options.task === true,
    ...(rerun && { rerun }),
    calls,
    onRunEnd: (event) => (outputs = { ...event.outputs }),
    checkKeys: () => checkRunKeys(target, options),
  });
  const run: WorkflowRun = { status: meta.status, messages, meta, outputs, calls };
  rememberRun(run, { target, options, runId });
  return run;
}

/**
 * The name the client asks for: the workflow's prompt, or its tool (`expose.tool`, which it must
 * have for `face: 'tool'`). A class without `@Workflow` gets an empty name: `use()` refuses it first.
 */
function faceName(target: WorkflowClass, face: unknown): string {
  if (face !== 'prompt' && face !== 'tool') throw new RunWorkflowOptionError('face', `is 'prompt' or 'tool', not ${JSON.stringify(face)}`);
  const model = readWorkflowModel(target);
  if (!model) return '';
  if (face === 'prompt') return model.name;
  const tool = workflowFaces(model).tool;
  if (!tool)
    throw new RunWorkflowOptionError(
      'face',
      `'tool': workflow '${model.name}' is not served as a tool. Fix: add expose: { tool: true } to its @Workflow, or run it as a prompt (face: 'prompt', the default)`,
    );
  return tool.name;
}

/** The SDK line and protocol asked for, with their defaults: 2, and the newest protocol the line speaks. */
function lineOf(options: RunWorkflowOptions): { sdk: 1 | 2; protocol: LineRun['protocol'] } {
  const sdk = options.sdk ?? 2;
  if (sdk !== 1 && sdk !== 2) throw new RunWorkflowOptionError('sdk', `is 1 or 2 (the MCP SDK line), not ${JSON.stringify(sdk)}`);
  const protocol = options.protocol ?? (sdk === 1 ? '2025-11-25' : '2026-07-28');
  if (!PROTOCOLS.includes(protocol))
    throw new RunWorkflowOptionError('protocol', `is '2025-11-25' or '2026-07-28', not ${JSON.stringify(protocol)}`);
  if (sdk === 1 && protocol === '2026-07-28')
    throw new RunWorkflowOptionError(
      'protocol',
      `'2026-07-28' is served by SDK 2.x only: use sdk: 2 (the default), or protocol '2025-11-25' on SDK 1.x`,
    );
  if (options.task !== undefined && typeof options.task !== 'boolean')
    throw new RunWorkflowOptionError('task', `is true or false, not ${JSON.stringify(options.task)}`);
  if (options.task && (sdk !== 2 || protocol !== '2026-07-28'))
    throw new RunWorkflowOptionError(
      'task',
      'runs a workflow as an MCP task, which SDK 2.x serves on protocol 2026-07-28: use sdk: 2 and that protocol (the defaults)',
    );
  if (options.task && options.face === 'prompt')
    throw new RunWorkflowOptionError(
      'task',
      `true with face: 'prompt' cannot run: only a tool call becomes an MCP task, so task: true runs the workflow's tool face. ` +
        `Fix: drop face: 'prompt' (or write face: 'tool') to run it as a task, or drop task: true to run its prompt (nothing ran).`,
    );
  return { sdk, protocol };
}
