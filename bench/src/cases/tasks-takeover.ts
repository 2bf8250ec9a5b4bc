import { fork, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { callTool, resumeTask } from '@mcpflow/client';
import type { BenchCase, Figure } from '../case';
import { startRedis } from '../fixtures/redis-server';
import { httpClient } from '../fixtures/task-rpc';
import { stats, type Stats } from '../measure';
import { range } from '../report';
import { sized } from '../run-options';

const INSTANCE = path.join(__dirname, '..', 'fixtures', 'task-instance.js');

/** bullmqTasks' default lockDurationMs, and so its default stalledIntervalMs (which follows the lock). */
const DEFAULT_LOCK_MS = 30_000;

/** An instance process (fixtures/task-instance.ts): its URL, and when (performance.now()) `hold` started there for a label. */
interface Instance {
  readonly child: ChildProcess;
  readonly url: URL;
  held(label: string): Promise<number>;
}

async function startInstance(env: NodeJS.ProcessEnv): Promise<Instance> {
  const child = fork(INSTANCE, [], {
    env: { ...process.env, ...env, BENCH_REPORT_HOLDS: '1' },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const holds = new Map<string, number>();
  const waiting = new Map<string, (at: number) => void>();
  const port = await new Promise<number>((resolve, reject) => {
    child.on('message', (message: { port?: number; held?: string }) => {
      if (message.port !== undefined) resolve(message.port);
      if (message.held === undefined) return;
      const at = performance.now();
      holds.set(message.held, at);
      waiting.get(message.held)?.(at);
    });
    child.once('exit', (code) => reject(new Error(`a tasks-takeover instance exited (${code}) before listening`)));
  });
  return {
    child,
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    held: (label) => (holds.has(label) ? Promise.resolve(holds.get(label)!) : new Promise((resolve) => waiting.set(label, resolve))),
  };
}

/** One store's settings to measure: a name for the row, and the instances' environment. */
interface Setting {
  readonly name: string;
  readonly env: NodeJS.ProcessEnv;
}

/**
 * `samples` instances A, each running one task of `hold_job` on the redis-server, each in the
 * middle of its second step (`hold`, which never returns there; `prepare` is checkpointed); then
 * instance B starts, and the A instances are killed with SIGKILL one after another, a stalled interval ÷
 * `samples` apart. Each sample: from the kill of the instance running the task to the
 * moment `hold` starts again on B (B took the round over from its checkpoint). Each task must then
 * complete on B, or the case throws.
 */
async function takeovers(redisPort: number, setting: Setting, samples: number): Promise<Stats> {
  const env = { ...setting.env, BENCH_REDIS_PORT: String(redisPort), BENCH_PREFIX: `takeover-${setting.name}` };
  const killed = await Promise.all(Array.from({ length: samples }, () => startInstance({ ...env, BENCH_HOLD_MS: '-1' })));
  const labels = killed.map((_, index) => `${setting.name}-${index}`);
  const taskIds = await Promise.all(
    killed.map(async (instance, index) => {
      const { client } = await httpClient(instance.url);
      const taskId = await new Promise<string>((resolve, reject) => {
        // The call fails once its instance is killed: the task goes on elsewhere.
        callTool(
          client,
          { name: 'hold_job', arguments: { label: labels[index] } },
          { task: 'always', onStatus: (task) => resolve(task.taskId) },
        )
          .catch(reject)
          .finally(() => void client.close().catch(() => undefined));
      });
      // Its round runs on whichever of the A instances' workers took it (they share the queue).
      await Promise.race(killed.map((candidate) => candidate.held(labels[index])));
      return taskId;
    }),
  );
  const survivor = await startInstance({ ...env, BENCH_HOLD_MS: '0' });
  try {
    // One kill every stalled interval ÷ samples: BullMQ looks for stalled rounds every stalled interval, so the
    // samples fall at different points of that cycle (a single moment would give one figure, however many tasks).
    const spacingMs = Number(setting.env.BENCH_STALLED_MS ?? setting.env.BENCH_LOCK_MS ?? DEFAULT_LOCK_MS) / samples;
    const killedAt: number[] = [];
    for (const [index, instance] of killed.entries()) {
      if (index > 0) await new Promise((resolve) => setTimeout(resolve, spacingMs));
      killedAt.push(performance.now());
      instance.child.kill('SIGKILL');
    }
    // Which A ran which round does not matter: each was killed at its own time, and took its round with it.
    const owner = await Promise.all(
      labels.map((label) => Promise.race(killed.map((candidate, index) => candidate.held(label).then(() => index)))),
    );
    const times = await Promise.all(labels.map(async (label, index) => (await survivor.held(label)) - killedAt[owner[index]]));
    const { client } = await httpClient(survivor.url);
    for (const [index, taskId] of taskIds.entries()) {
      const done = await resumeTask(client, taskId, { pollIntervalMs: 20 });
      if (!JSON.stringify(done.content).includes(`held ${labels[index]}`))
        throw new Error(`tasks-takeover: the task taken over did not complete with its result (${JSON.stringify(done.content)})`);
    }
    await client.close();
    return stats(times.map((ms) => ms / 1000));
  } finally {
    survivor.child.kill('SIGKILL');
  }
}

/**
 * Takeover time after SIGKILL with bullmqTasks (issue 38, reported): instances in processes of
 * their own on a local redis-server; an instance killed in the middle of a task's step, and the
 * time until another instance starts that step again from the task's checkpoint — with the
 * defaults (lock 30 s, stalled check every 30 s) and with `lockDurationMs: 5000`. The two settings
 * run at the same time (each its own prefix): the case lasts as long as the slower (about 80 s at
 * most: the last kill 20 s in, and up to two stalled intervals), not their sum.
 */
export const tasksTakeover: BenchCase = {
  name: 'tasks-takeover',
  async run(options) {
    const { samples, settings } = sized(
      options,
      {
        samples: 3,
        settings: [
          { name: 'defaults', env: {} },
          { name: 'lock-5s', env: { BENCH_LOCK_MS: '5000' } },
        ] as Setting[],
      },
      // A smoke pass: one sample, with short locks (the defaults take up to a minute).
      { samples: 1, settings: [{ name: 'smoke', env: { BENCH_LOCK_MS: '1000', BENCH_STALLED_MS: '1000' } }] },
    );
    const redis = await startRedis();
    try {
      const measured = await Promise.all(settings.map((setting) => takeovers(redis.port, setting, samples)));
      const figures: Figure[] = settings.map((setting, index) => ({
        benchmark: `takeover after SIGKILL of the instance running a task's step (bullmqTasks, ${
          setting.name === 'defaults'
            ? 'default lock 30 s, stalled check 30 s'
            : `lockDurationMs ${setting.env.BENCH_LOCK_MS}, stalledIntervalMs ${setting.env.BENCH_STALLED_MS ?? `${setting.env.BENCH_LOCK_MS} (default: the lock's)`}`
        }): kill to the step starting again on another instance, ${samples} instances killed a stalled interval ÷ ${samples} apart`,
        figure: range(measured[index], 's', 1),
        target: 'reported',
      }));
      return { result: Object.fromEntries(settings.map((setting, index) => [setting.name, measured[index]])), figures };
    } finally {
      redis.stop();
    }
  },
};
