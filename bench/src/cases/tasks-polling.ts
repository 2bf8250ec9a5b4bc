import * as path from 'node:path';
import { callTool } from '@mcpflow/client';
import type { BenchCase, Figure } from '../case';
import { startRedis } from '../fixtures/redis-server';
import { httpClient } from '../fixtures/task-rpc';
import { startServerProcess } from '../http/server-process';
import { fmt } from '../report';
import { sized } from '../run-options';

const INSTANCE = path.join(__dirname, '..', 'fixtures', 'task-instance.js');

/** What `hold` takes in each task: long enough for each client to poll a few times at the server's pollIntervalMs (1 s). */
const HOLD_MS = 2000;

/**
 * `tasks` tasks at once, each from a client of its own (`@mcpflow/client`'s `callTool` over HTTP,
 * polling `tasks/get` at the server's `pollIntervalMs`), on a server process (fixtures/task-instance.ts)
 * with `store`: the server's CPU time (user + system, read over IPC) over the whole batch, per task.
 * A warm-up batch first. Throws unless every task completes with its result.
 */
async function cpuPerTask(env: NodeJS.ProcessEnv, tasks: number) {
  const server = await startServerProcess(INSTANCE, { ...env, BENCH_HOLD_MS: String(HOLD_MS) });
  const clients: Awaited<ReturnType<typeof httpClient>>[] = [];
  // Connected one by one (not measured): what runs at once is the tasks.
  for (let index = 0; index < tasks; index += 1) clients.push(await httpClient(server.url));
  try {
    const batch = (label: string) =>
      Promise.all(
        clients.map(async ({ client }, index) => {
          const done = await callTool(client, { name: 'hold_job', arguments: { label: `${label} ${index}` } }, { task: 'always' }).catch(
            (error: Error) => {
              throw new Error(
                `tasks-polling: a call failed: ${error.message} (${String((error.cause as Error | undefined)?.message ?? '')})`,
                { cause: error },
              );
            },
          );
          if (!JSON.stringify(done.content).includes(`held ${label} ${index}`))
            throw new Error(`tasks-polling: a task did not complete with its result (${JSON.stringify(done.content)})`);
        }),
      );
    await batch('warm-up');
    const polls = clients.reduce((sum, { sent }) => sum + sent('tasks/get'), 0);
    const before = await server.cpuMs();
    const started = performance.now();
    await batch('measured');
    const wallMs = performance.now() - started;
    const cpuMs = (await server.cpuMs()) - before;
    const pollsPerTask = (clients.reduce((sum, { sent }) => sum + sent('tasks/get'), 0) - polls) / tasks;
    return { cpuMsPerTask: cpuMs / tasks, cpuMs, wallMs, pollsPerTask };
  } finally {
    await Promise.all(clients.map(({ close }) => close().catch(() => undefined)));
    server.stop();
  }
}

/**
 * The server's CPU per task with clients polling at the server's `pollIntervalMs` (issue 38,
 * reported): 200 tasks at once, each a client of its own over HTTP on 127.0.0.1, the server in a
 * process of its own — with memoryTasks, and with bullmqTasks on a local redis-server.
 */
export const tasksPolling: BenchCase = {
  name: 'tasks-polling',
  async run(options) {
    const { tasks } = sized(options, { tasks: 200 }, { tasks: 4 });
    const redis = await startRedis();
    try {
      const memory = await cpuPerTask({}, tasks);
      const bullmq = await cpuPerTask({ BENCH_REDIS_PORT: String(redis.port), BENCH_PREFIX: 'polling' }, tasks);
      const row = (store: string, measured: typeof memory): Figure => ({
        benchmark: `server CPU per task, ${tasks} tasks at once from ${tasks} HTTP clients polling at the server's pollIntervalMs (1 s), a 2-step workflow holding ${HOLD_MS / 1000} s (${store})`,
        figure: `${fmt(measured.cpuMsPerTask, 2)} ms (${fmt(measured.cpuMs, 0)} ms CPU in ${fmt(measured.wallMs / 1000, 1)} s; ${fmt(measured.pollsPerTask, 1)} tasks/get per task)`,
        target: 'reported',
      });
      return { result: { tasks, memory, bullmq }, figures: [row('memoryTasks', memory), row('bullmqTasks, local redis-server', bullmq)] };
    } finally {
      redis.stop();
    }
  },
};
