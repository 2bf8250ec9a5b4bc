import { bullmqTasks } from '@mcpflow/core/v2';
import type { BenchCase } from '../case';
import { callTool, resumeTask } from '@mcpflow/client';
import { rawBullmqJobs, redisCost } from '../fixtures/redis-cost';
import { startRedis } from '../fixtures/redis-server';
import { runAsTask, statelessClient } from '../fixtures/task-rpc';
import { stats } from '../measure';
import { fmt, range } from '../report';
import { sized } from '../run-options';
import { taskChainServer } from './tasks';

const KEY = 'bench-bullmq-tasks-key-of-32-bytes!!';

/** Rounds each instance's worker runs at once: bullmqTasks' default, and the raw BullMQ anchor's workers' concurrency. */
const CONCURRENCY = 16;

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
    // maxTaskBytes past the 4 MiB case's: each step of the chain echoes its value, so its checkpoints hold the argument once a step.
    const store = () =>
      bullmqTasks({
        connection: { host: '127.0.0.1', port: redis.port },
        prefix: 'bench',
        maxTasks: 10_000,
        maxTaskBytes: 256 * 1024 * 1024,
        concurrency: CONCURRENCY,
      });
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
      const cost = await redisCosts(redis.port, instances[0], sized(options, { tasks: 50 }, { tasks: 3 }).tasks);
      return {
        result: { latency, perSecond, concurrent, redis: cost.result },
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
          ...cost.figures,
        ],
      };
    } finally {
      await Promise.all(instances.map((instance) => instance.close()));
      await Promise.all(stores.map((tasks) => tasks.close()));
      redis.stop();
    }
  },
};

/** The 4 MiB argument of the Redis cost: 4 MiB less 8 KiB, so the request's body stays within the SDK's 4 MiB limit. */
const BIG_ARGUMENT = 4 * 1024 * 1024 - 8 * 1024;

/**
 * Redis's cost of a 4-step task against raw BullMQ's of a 4-update job, on the same redis-server in
 * the same run (`tasks` of each, one at a time): commands and bytes received per task, without what
 * the client's `tasks/get` polls cost (each one HMGET of the task's view, taken out by count and exact size); then one
 * task with a 4 MiB argument: bytes received against the argument, and Redis's slowest command.
 */
async function redisCosts(port: number, bench: Awaited<ReturnType<typeof statelessClient>>, tasks: number) {
  const raw = await redisCost(port, await rawBullmqJobs(port, tasks, () => ({ input: 'hello 1' }), { concurrency: CONCURRENCY }));
  let taskId = '';
  // Polled every 20 ms, not at once: the polls' own cost is taken out below, and fewer keep the rest readable.
  const run = (input: string) =>
    callTool(
      bench.client,
      { name: 'chain', arguments: { input } },
      { task: 'always', pollIntervalMs: 20, onStatus: (task) => (taskId = task.taskId) },
    );
  const polls = () => bench.sent('tasks/get');
  let before = polls();
  const small = await redisCost(port, async () => {
    for (let index = 0; index < tasks; index += 1) await run('hello 1');
  });
  const smallPolls = polls() - before;
  // What one tasks/get costs Redis, measured alone: 20 of them on the finished task.
  const poll = await redisCost(port, async () => {
    for (let index = 0; index < 20; index += 1) await resumeTask(bench.client, taskId);
  });
  const perPoll = { commands: poll.commands / 20, bytes: poll.bytesIn / 20 };
  const ours = {
    commands: (small.commands - smallPolls * perPoll.commands) / tasks,
    bytes: (small.bytesIn - smallPolls * perPoll.bytes) / tasks,
  };
  const rawPer = { commands: raw.commands / tasks, bytes: raw.bytesIn / tasks };
  before = polls();
  const big = await redisCost(port, async () => {
    await run('x'.repeat(BIG_ARGUMENT));
  });
  const bigBytes = big.bytesIn - (polls() - before) * perPoll.bytes;
  const commandsRatio = ours.commands / rawPer.commands;
  const bytesRatio = ours.bytes / rawPer.bytes;
  const bigRatio = bigBytes / BIG_ARGUMENT;
  return {
    result: { raw, small, big, tasks, ours, rawPer },
    figures: [
      {
        benchmark: `Redis commands per 4-step task (bullmqTasks, two instances, without the client's polls) / per raw BullMQ job with 4 updateData (QueueEvents, two workers, concurrency ${CONCURRENCY} as the instances')`,
        figure: `${fmt(ours.commands, 1)} / ${fmt(rawPer.commands, 1)} = ${fmt(commandsRatio, 2)}`,
        target: '≤ 1.2',
        met: commandsRatio <= 1.2,
      },
      {
        benchmark: 'bytes sent to Redis per 4-step task (7-character argument, without the polls) / per raw BullMQ job',
        figure: `${fmt(ours.bytes / 1024, 1)} KB / ${fmt(rawPer.bytes / 1024, 1)} KB = ${fmt(bytesRatio, 2)}`,
        target: '≤ 2',
        met: bytesRatio <= 2,
      },
      {
        benchmark: 'a 4-step task with a 4 MiB argument: bytes sent to Redis / the argument',
        figure: `${fmt(bigBytes / 1024 / 1024, 1)} MiB / ${fmt(BIG_ARGUMENT / 1024 / 1024, 2)} MiB = ${fmt(bigRatio, 2)}`,
        target: '≤ 3',
        met: bigRatio <= 3,
      },
      {
        benchmark: "a 4-step task with a 4 MiB argument: Redis's slowest command (SLOWLOG; the polls' reads included)",
        figure: `${fmt(big.slowestMs, 1)} ms (${big.slowest})`,
        target: '≤ 50 ms',
        met: big.slowestMs <= 50,
      },
    ],
  };
}
