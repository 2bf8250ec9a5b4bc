import { Workflow } from '@mcpflow/decorators';
import { WorkflowServer, memoryTasks, type TaskStore } from '@mcpflow/core/v2';
import type { BenchCase } from '../case';
import { chainArguments, chainTool, chainWorkflow, inputSchema } from '../fixtures/chain';
import { runAsTask, taskRpc } from '../fixtures/task-rpc';
import { pairedRatio, sideBySide } from '../measure';
import { fmt, range, ratioFigure } from '../report';
import { sized, type RunOptions } from '../run-options';

/** The 4-step chain as a task tool (`expose: { tool: { task: 'optional' } }`) on a 2.x WorkflowServer with `store` (and `pause`, which a shared store needs). */
export function taskChainServer(steps: number, store: TaskStore, pause?: { keys: string[] }): WorkflowServer {
  const TaskChain = class extends chainWorkflow(steps) {};
  Workflow({ name: 'chain', description: 'A chain of trivial steps', arguments: chainArguments, expose: { tool: { task: 'optional' } } })(
    TaskChain,
  );
  const server = new WorkflowServer({ name: 'bench', version: '1.0.0' }, { tasks: store, ...(pause && { pause }) });
  for (let index = 0; index < steps; index += 1)
    server.registerTool(`step_${index}`, { description: `Step ${index}`, inputSchema }, chainTool(index, 0));
  return server.use(TaskChain);
}

/** Heap retained per finished task once its TTL has passed (tasks forgotten by their timers), after GC (needs --expose-gc). */
async function retainedAfterTtl(options: RunOptions): Promise<{ tasks: number; bytesPerTask: number }> {
  // A warm-up as long as the measure: caches and maps that grow to their working size are not counted as retained.
  const { warmup, tasks } = sized(options, { warmup: 2000, tasks: 2000 }, { warmup: 5, tasks: 20 });
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  const ttlMs = 20;
  const store = memoryTasks({ maxTasks: 1_000_000, ttlMs });
  const { rpc, close } = taskRpc(() => taskChainServer(4, store));
  const expire = () => new Promise((resolve) => setTimeout(resolve, ttlMs * 5));
  const settle = async () => {
    await expire();
    for (let index = 0; index < 3; index += 1) gc();
    return process.memoryUsage().heapUsed;
  };
  for (let index = 0; index < warmup; index += 1) await runAsTask(rpc, 'chain', { input: `warm ${index}` });
  const before = await settle();
  for (let index = 0; index < tasks; index += 1) await runAsTask(rpc, 'chain', { input: `hello ${index}` });
  const after = await settle();
  await close();
  return { tasks, bytesPerTask: Math.max(0, after - before) / tasks };
}

/**
 * MCP tasks with memoryTasks() on SDK 2.x, through the SDK's stateless serving in memory: the
 * 4-step chain as a task — `tools/call`, then `tasks/get` polled at once until completed — against
 * the same tool called synchronously on the same server (a request without the tasks extension);
 * and the heap a finished task leaves once its TTL has passed. Refuses to run unless both return
 * the same tool result.
 */
export const tasks: BenchCase = {
  name: 'tasks',
  async run(options) {
    const store = memoryTasks({ maxTasks: 1_000_000, ttlMs: 60_000 });
    const { rpc, close } = taskRpc(() => taskChainServer(4, store));
    const args = { input: 'hello' };
    const asTask = () => runAsTask(rpc, 'chain', args);
    const sync = () => rpc('tools/call', { name: 'chain', arguments: args }, 'chain', false);
    const [tasked, called] = await Promise.all([asTask(), sync()]);
    const { resultType: _type, _meta: _syncMeta, ...syncResult } = called;
    const { _meta: _taskMeta, ...taskResult } = tasked;
    if (JSON.stringify(taskResult) !== JSON.stringify(syncResult))
      throw new Error('tasks: the task and the synchronous call return different results');
    const measured = await sideBySide({ asTask, sync }, sized(options, { warmup: 500, rounds: 30, batch: 50 }));
    await close();
    const ratio = pairedRatio(measured.asTask, measured.sync);
    const retained = await retainedAfterTtl(options);
    return {
      result: { asTask: measured.asTask, sync: measured.sync, ratio, retained },
      figures: [
        {
          benchmark: 'a 4-step workflow as a task (create, tasks/get until completed) vs called synchronously (memoryTasks, SDK 2.x)',
          figure: `${ratioFigure('task', measured.asTask, 'sync', measured.sync)}; paired by round ${range(ratio, '', 3)} (${fmt(ratio.median, 3)})`,
          target: 'paired ratio ≤ 1.5',
          met: ratio.median <= 1.5,
        },
        {
          benchmark: `heap retained per finished task after its TTL (${retained.tasks} tasks, memoryTasks, after GC)`,
          figure: `${fmt(retained.bytesPerTask)} bytes`,
          target: '0 bytes (< 64, GC noise)',
          met: retained.bytesPerTask < 64,
        },
      ],
    };
  },
};
