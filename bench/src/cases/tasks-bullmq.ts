import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { bullmqTasks } from '@mcpflow/core/v2';
import type { BenchCase } from '../case';
import { runAsTask, statelessClient } from '../fixtures/task-rpc';
import { stats } from '../measure';
import { fmt, range } from '../report';
import { sized } from '../run-options';
import { taskChainServer } from './tasks';

const KEY = 'bench-bullmq-tasks-key-of-32-bytes!!';

/** A `redis-server` with no persistence on a free loopback port (Debian's `redis-server` package). */
async function startRedis(): Promise<{ port: number; stop: () => void }> {
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as { port: number };
      probe.close(() => resolve(free));
    });
  });
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('error', () => reject(new Error('tasks-bullmq needs redis-server: apt-get install -y redis-server')));
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('Ready to accept connections')) resolve();
    });
  });
  return { port, stop: () => child.kill('SIGKILL') };
}

/**
 * MCP tasks with bullmqTasks on a local redis-server, SDK 2.x through the SDK's stateless serving in
 * memory: two instances in this process (two stores, each with its own BullMQ worker, sharing the
 * queue and the task keys; a client talks to one, the other's worker takes rounds too). Figures:
 * the create-to-completed time of the 4-step chain, one task at a time (`tasks/get` polled at
 * once); and tasks completed per second with 16 concurrent clients, alternating between the two
 * instances. Reported, no target. Each step is checkpointed in Redis.
 */
export const tasksBullmq: BenchCase = {
  name: 'tasks-bullmq',
  async run(options) {
    const redis = await startRedis();
    const pause = { keys: [KEY] };
    // maxTasks past the case's 2,350 tasks: finished tasks count until their TTL passes (the default cap is 1,000).
    const store = () => bullmqTasks({ connection: { host: '127.0.0.1', port: redis.port }, prefix: 'bench', maxTasks: 10_000 });
    const stores = [store(), store()];
    const instances = await Promise.all(stores.map((tasks) => statelessClient(() => taskChainServer(4, tasks, pause))));
    try {
      const { warmup, sequential, concurrent } = sized(
        options,
        { warmup: 50, sequential: 300, concurrent: 2000 },
        { warmup: 2, sequential: 5, concurrent: 32 },
      );
      const run = (index: number) => runAsTask(instances[index % 2].client, 'chain', { input: `hello ${index}` });
      for (let index = 0; index < warmup; index += 1) await run(index);
      const samples: number[] = [];
      for (let index = 0; index < sequential; index += 1) {
        const start = performance.now();
        await run(index);
        samples.push(performance.now() - start);
      }
      const latency = stats(samples);
      let next = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          while (next < concurrent) await run(next++);
        }),
      );
      const perSecond = concurrent / ((performance.now() - started) / 1000);
      return {
        result: { latency, perSecond, concurrent },
        figures: [
          {
            benchmark:
              'a 4-step workflow as a task with bullmqTasks on a local redis-server: create to completed (tasks/get polled at once)',
            figure: range(latency, 'ms', 2),
            target: 'reported',
          },
          {
            benchmark: 'tasks completed per second, bullmqTasks, two instances, 16 concurrent clients (4-step workflow)',
            figure: `${fmt(perSecond, 0)} tasks/s (${concurrent} tasks)`,
            target: 'reported',
          },
        ],
      };
    } finally {
      await Promise.all(instances.map((instance) => instance.close()));
      await Promise.all(stores.map((tasks) => tasks.close()));
      redis.stop();
    }
  },
};
