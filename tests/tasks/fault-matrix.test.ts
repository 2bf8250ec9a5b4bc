import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createClient } from 'redis';
import { resumeTask, type TaskStatus } from '@mcpflow/client';
import { REDIS_REQUIRED, redisServerInstalled, startRedisServer, type RedisServer } from '../helpers/redis-server';
import { appendSideEffect, fencingViolations, readSideEffects, type SideEffect } from './side-effect-log';
import { RawTaskWire } from '../helpers/raw-task-wire';

/**
 * The fault matrix of fenced task rounds (DESIGN §2.13 "Fenced rounds"): two instance processes
 * (fault-instance.js, on the built packages) share a redis-server this test starts; each step's tool
 * appends a line to a side-effect log as it starts. Under each fault — the running instance stopped
 * past its lock (SIGSTOP) then woken, pub/sub connections killed before a cancel, Redis paused or
 * asleep mid-checkpoint, the running instance killed, Redis restarted — the log must show: no step
 * starting on an instance after another took the round over, nothing after `cancelled`, every step
 * of a completed task once but the one in flight (at most twice, same run id). Locks of 3 s with a
 * stalled check every second, so a takeover comes within seconds.
 */
const KEY = 'fault-matrix-test-key-of-32-bytes!!!';
const STEPS = ['s1', 's2', 's3', 's4', 's5'];

interface Instance {
  readonly name: string;
  readonly child: ChildProcess;
  readonly client: RawTaskWire;
  readonly url: URL;
  /** What it wrote on stderr (DEBUG=mcpflow). */
  stderr: string;
}

const children: ChildProcess[] = [];
let redis: RedisServer;
let dir: string;
let log: string;

/** An instance process; `overrides` sets its lock, stalled check or step time (fault-instance.js). */
async function startInstance(name: string, overrides: NodeJS.ProcessEnv = {}): Promise<Instance> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...overrides,
    DEBUG: 'mcpflow',
    MCPFLOW_TEST_REDIS_PORT: String(redis.port),
    MCPFLOW_TEST_KEYS: JSON.stringify([KEY]),
    MCPFLOW_TEST_LOG: log,
    MCPFLOW_TEST_INSTANCE: name,
  };
  const child = spawn(process.execPath, [path.join(__dirname, 'fault-instance.js')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const port = await new Promise<number>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((candidate) => candidate.startsWith('{'));
      if (line) resolve((JSON.parse(line) as { port: number }).port);
    });
    child.on('exit', (code) => reject(new Error(`instance ${name} exited with ${code}`)));
  });
  const url = new URL(`http://127.0.0.1:${port}/mcp`);
  const instance: Instance = { name, child, client: RawTaskWire.overHttp(url), url, stderr: '' };
  child.stderr!.on('data', (chunk: Buffer) => (instance.stderr += chunk.toString()));
  // An instance that ends by itself (not killed by the test) crashed: what it said goes to the test's output.
  child.on('exit', (code) => {
    if (code !== null) console.error(`instance ${name} exited with ${code}:\n${instance.stderr.slice(-3000)}`);
  });
  return instance;
}

/** Waits, at most `limitMs`, until `condition` holds; a functional wait on an event, not a timing assertion. */
async function eventually(condition: () => boolean | Promise<boolean>, what: string, limitMs = 40_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not reached in time: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function starts(label: string): SideEffect[] {
  return readSideEffects(log).filter((line) => line.label === label && line.event === 'start');
}

function violations(label: string, completed = false): string[] {
  return fencingViolations(readSideEffects(log), label, { steps: STEPS, completed });
}

/** Two instances, and a task of `label` created through the first; resolves once `step` of it runs, with the instance running it. */
async function taskInFlight(label: string, step = 's2', overrides: NodeJS.ProcessEnv = {}) {
  const instances = await Promise.all([startInstance('a', overrides), startInstance('b', overrides)]);
  const taskId = await created(instances[0], label);
  await eventually(() => starts(label).some((line) => line.step === step), `${step} of ${label} started`);
  const { runner, other } = runnerOf(instances, label, step);
  return { taskId, runner, other, instances };
}

/** A task of the pipeline made through `instance`, with `payload` as its optional argument; its id. */
async function created(instance: Instance, label: string, payload?: string): Promise<string> {
  const answer = await instance.client.call('pipeline', { label, ...(payload === undefined ? {} : { payload }) });
  expect(answer.error).toBeUndefined();
  const taskId = answer.result?.taskId;
  expect(taskId).toEqual(expect.any(String));
  return taskId as string;
}

/** The instance that started `step` of `label`, and the other. */
function runnerOf(instances: readonly Instance[], label: string, step: string): { runner: Instance; other: Instance } {
  const running = starts(label).find((line) => line.step === step)!.instance;
  const runner = instances.find((instance) => instance.name === running)!;
  return { runner, other: instances.find((instance) => instance !== runner)! };
}

/** `tasks/get` until the task is terminal, through `instance`, retrying while Redis is away. */
async function finished(instance: Instance, taskId: string): Promise<Record<string, unknown>> {
  let task: Record<string, unknown> | undefined;
  await eventually(
    async () => {
      const answer = await instance.client.request('tasks/get', { taskId }).catch(() => undefined);
      task = answer?.result;
      return ['completed', 'failed', 'cancelled'].includes(String(task?.status));
    },
    `task ${taskId.slice(0, 8)} finished`,
  ).catch((error: Error) => {
    // What the instance and the side-effect log said, for whoever reads a failure in CI.
    throw new Error(
      `${error.message}; last task: ${JSON.stringify(task)}\n${instance.name}: ${instance.stderr.slice(-3000)}\nlog: ${readSideEffects(log)
        .map((line) => JSON.stringify(line))
        .join('\n')}`,
    );
  });
  return task!;
}

/** The instance told its round of this task was fenced off (DEBUG=mcpflow), or the log already shows a violation. */
async function fencedOffOrViolated(instance: Instance, taskId: string, label: string): Promise<void> {
  await eventually(
    () => instance.stderr.includes(`fenced off`) || violations(label).length > 0,
    `${instance.name}'s round of ${taskId.slice(0, 8)} fenced off`,
  );
}

async function redisCommand(...command: string[]): Promise<unknown> {
  const connection = createClient({ url: redis.url });
  await connection.connect();
  try {
    return await connection.sendCommand(command);
  } finally {
    await connection.close();
  }
}

const available = redisServerInstalled();
if (!available && REDIS_REQUIRED) {
  test('redis-server is installed (CI runs the fault matrix against a real server)', () => {
    throw new Error('redis-server is not installed: `apt-get install -y redis-server` (.ci/run does it when missing)');
  });
}
const describeWithRedis = available ? describe : describe.skip;

beforeAll(async () => {
  if (available) redis = await startRedisServer();
}, 60_000);
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'mcpflow-faults-'));
  log = path.join(dir, 'side-effects.log');
});
afterEach(async () => {
  const exits = children.splice(0).map((child) =>
    child.exitCode !== null || child.signalCode !== null
      ? undefined
      : new Promise((resolve) => {
          child.once('exit', resolve);
          child.kill('SIGCONT');
          child.kill('SIGKILL');
        }),
  );
  await Promise.all(exits);
  rmSync(dir, { recursive: true, force: true });
  await redis?.flushAll();
});
afterAll(async () => {
  await redis?.stop();
});

describeWithRedis('fenced task rounds under faults (two instances, bullmqTasks, 3 s locks)', () => {
  test('SIGSTOP of the running instance past its lock, then SIGCONT: the other takes the round over; the stalled one never starts another step', async () => {
    const { taskId, runner, other } = await taskInFlight('stopped');
    runner.child.kill('SIGSTOP');
    // The other instance takes the round over and goes past the step that was in flight.
    await eventually(() => starts('stopped').some((line) => line.instance === other.name && line.step === 's3'), 'takeover past s2');
    runner.child.kill('SIGCONT');
    await fencedOffOrViolated(runner, taskId, 'stopped');
    const done = await finished(other, taskId);
    expect(done.status).toBe('completed');
    expect(violations('stopped', true)).toEqual([]);
  }, 60_000);

  test('SIGSTOP past the default lock (30 s, stalled check every 30 s), then SIGCONT: the same, with bullmqTasks as a user gets it', async () => {
    const defaults = { MCPFLOW_TEST_LOCK_MS: 'default', MCPFLOW_TEST_STALLED_MS: 'default' };
    const { taskId, runner, other } = await taskInFlight('stopped-default', 's2', defaults);
    runner.child.kill('SIGSTOP');
    // The lock lapses 30 s after its last renewal; a stalled check (every 30 s) then hands the round over.
    const takenOver = () => starts('stopped-default').some((line) => line.instance === other.name && line.step === 's3');
    await eventually(takenOver, 'takeover past s2 with the default lock', 150_000);
    runner.child.kill('SIGCONT');
    await fencedOffOrViolated(runner, taskId, 'stopped-default');
    const done = await finished(other, taskId);
    expect(done.status).toBe('completed');
    expect(violations('stopped-default', true)).toEqual([]);
  }, 240_000);

  test('SIGSTOP past the lock (10 s) under load, with 1 MiB arguments: four tasks at once; every round of the stalled instance ends, every task completes, no step twice but those in flight', async () => {
    const labels = ['loaded-1', 'loaded-2', 'loaded-3', 'loaded-4'];
    const payload = 'p'.repeat(1024 * 1024);
    // A 10 s lock: longer than an instance's own pauses while it seals and parses 1 MiB values on a loaded
    // machine (a lapse then is a takeover the test did not cause, and its step in flight a second one run twice).
    const lock = { MCPFLOW_TEST_LOCK_MS: '10000' };
    const instances = await Promise.all([startInstance('a', lock), startInstance('b', lock)]);
    const taskIds = await Promise.all(labels.map((label, index) => created(instances[index % 2], label, payload)));
    await eventually(() => labels.every((label) => starts(label).some((line) => line.step === 's2')), 's2 of every task started');
    const { runner, other } = runnerOf(instances, 'loaded-1', 's2');
    runner.child.kill('SIGSTOP');
    // The other instance takes over every round the stalled one held and goes past each one's step in flight.
    const stalled = labels.filter((label) => starts(label).some((line) => line.instance === runner.name));
    await eventually(
      () => stalled.every((label) => starts(label).some((line) => line.instance === other.name && line.step === 's5')),
      'every stalled round taken over',
      60_000,
    );
    runner.child.kill('SIGCONT');
    await fencedOffOrViolated(runner, taskIds[0], 'loaded-1');
    for (const taskId of taskIds) expect((await finished(other, taskId)).status).toBe('completed');
    for (const label of labels) expect(violations(label, true)).toEqual([]);
  }, 120_000);

  test('Redis restarted without its data mid-task: the task is gone — no step starts after, tasks/get answers -32602 saying so, and both instances go on serving new tasks', async () => {
    // Steps of 3 s: the restart comes well within the step in flight.
    const { taskId, runner, instances } = await taskInFlight('forgotten', 's2', { MCPFLOW_TEST_STEP_MS: '3000' });
    await redis.restart();
    expect(await redisCommand('KEYS', 'fault-test:task:*')).toEqual([]);
    // The round learns its task is gone at its next step boundary (its lock renewal or its checkpoint fails): it ends there.
    await fencedOffOrViolated(runner, taskId, 'forgotten');
    for (const instance of instances) {
      let answer = await instance.client.request('tasks/get', { taskId });
      // Redis's connections come back by themselves: retried while they do.
      await eventually(async () => {
        answer = await instance.client.request('tasks/get', { taskId });
        return !/unreachable/.test(String(answer.error?.message));
      }, 'Redis reached again');
      expect(answer.result).toBeUndefined();
      expect(answer.error).toMatchObject({ code: -32602 });
      expect(answer.error!.message).toMatch(/^tasks\/get: no task '.+' on this server — .*its task store lost it/);
    }
    // No step ran twice, and none after s2 (in flight at the loss) ever started.
    expect(starts('forgotten').map((line) => line.step)).toEqual(['s1', 's2']);
    expect(violations('forgotten')).toEqual([]);
    // The server keeps serving: a new task through each instance completes.
    for (const [index, instance] of instances.entries()) {
      const label = `after-${index}`;
      expect((await finished(instance, await created(instance, label))).status).toBe('completed');
      expect(violations(label, true)).toEqual([]);
    }
  }, 120_000);

  test('CLIENT KILL TYPE pubsub, then tasks/cancel: the cancel is read at the next step boundary, and nothing starts after it', async () => {
    const { taskId, runner, other } = await taskInFlight('unheard');
    // Every subscriber connection dropped, again as each comes back, until the cancel is acked: its message reaches nobody.
    const killer = createClient({ url: redis.url });
    await killer.connect();
    let acked = false;
    const killing = (async () => {
      while (!acked) {
        await killer.sendCommand(['CLIENT', 'KILL', 'TYPE', 'pubsub']);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    await eventually(
      async () =>
        Number(
          await killer.sendCommand(['PUBSUB', 'NUMSUB', 'fault-test:tasks:cancel']).then((reply) => (reply as unknown as unknown[])[1]),
        ) === 0,
      'no subscriber',
    );
    const cancelled = await other.client.request('tasks/cancel', { taskId });
    acked = true;
    await killing;
    await killer.close();
    expect(cancelled.error).toBeUndefined();
    appendSideEffect(log, { event: 'cancel-acked', label: 'unheard', instance: 'test' });
    await fencedOffOrViolated(runner, taskId, 'unheard');
    expect((await finished(other, taskId)).status).toBe('cancelled');
    expect(violations('unheard')).toEqual([]);
  }, 60_000);

  test('CLIENT PAUSE in Redis past the lock, mid-checkpoint: the round whose lock lapsed ends; the task completes with no step twice but the one in flight', async () => {
    const { taskId, other } = await taskInFlight('paused');
    await redisCommand('CLIENT', 'PAUSE', '4500', 'WRITE');
    const done = await finished(other, taskId);
    expect(done.status).toBe('completed');
    expect(violations('paused', true)).toEqual([]);
  }, 60_000);

  test('DEBUG SLEEP in Redis past the lock, mid-checkpoint: the same', async () => {
    const { taskId, other } = await taskInFlight('asleep');
    await redisCommand('DEBUG', 'SLEEP', '4.5');
    const done = await finished(other, taskId);
    expect(done.status).toBe('completed');
    expect(violations('asleep', true)).toEqual([]);
  }, 60_000);

  test('SIGKILL mid-step: the other instance goes on from the last checkpoint; only the step in flight runs twice, with the same run id', async () => {
    const { taskId, runner, other } = await taskInFlight('killed');
    runner.child.kill('SIGKILL');
    const done = await finished(other, taskId);
    expect(done.status).toBe('completed');
    expect(violations('killed', true)).toEqual([]);
    expect(starts('killed').filter((line) => line.step === 's2')).toHaveLength(2);
  }, 60_000);

  test('SIGKILL mid-step: after the takeover, tasks/get names the step the other instance runs (statusMessage and _meta["mcpflow/task"])', async () => {
    // A lock that does not lapse by itself: the test lapses it (deletes it in Redis) once the watcher heard
    // the step in flight, so what it hears does not hang on how fast it connects on a loaded machine.
    const { taskId, runner, other } = await taskInFlight('watched', 's2', { MCPFLOW_TEST_LOCK_MS: '600000' });
    runner.child.kill('SIGKILL');
    const client = new Client({ name: 'watcher', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new StreamableHTTPClientTransport(other.url));
    const heard: TaskStatus[] = [];
    try {
      const resuming = resumeTask(client, taskId, { onStatus: (task) => heard.push(task), pollIntervalMs: 20 });
      await eventually(() => heard.length > 0, 'the step in flight heard');
      const locks = (await redisCommand('KEYS', 'fault-test:*:lock')) as string[];
      expect(locks).toHaveLength(1);
      await redisCommand('DEL', ...locks);
      const result = await resuming;
      expect(result.isError).toBeUndefined();
    } finally {
      await client.close();
    }
    const working = heard.filter((task) => task.status === 'working');
    // Each status names one step, the same in its message and its _meta: the one in flight at the kill (s2_done, again on the other instance), then those after it.
    for (const task of working) {
      const step = task._meta?.['mcpflow/task'];
      expect(step).toEqual({
        workflow: 'pipeline',
        step: `${STEPS[step!.stepIndex]}_done`,
        stepIndex: step!.stepIndex,
        steps: 5,
        version: '5.0',
      });
      expect(task.statusMessage).toBe(`step ${step!.stepIndex + 1} of 5: ${step!.step}`);
    }
    const indices = working.map((task) => task._meta!['mcpflow/task']!.stepIndex);
    expect(indices[0]).toBe(1);
    expect(indices).toEqual([...indices].sort());
    expect(indices).toContain(4);
    // Steps 3 to 5 ran on the instance that took over: what tasks/get said of them came from its round.
    expect(
      starts('watched')
        .filter((line) => ['s3', 's4', 's5'].includes(line.step ?? ''))
        .map((line) => line.instance),
    ).toEqual([other.name, other.name, other.name]);
    expect(heard.at(-1)).toMatchObject({ status: 'completed' });
    expect(heard.at(-1)!._meta?.['mcpflow/task']).toBeUndefined();
  }, 60_000);

  test('Redis down while the fenced-off round ends (restarted with its data): the round goes back to the queue, not lost; the task completes from its checkpoint', async () => {
    const { taskId, runner, other } = await taskInFlight('ended-offline');
    // Redis stays down until the round that could not prove its hold has ended on the runner (and a
    // little after, while the round's last reads fail): then it comes back with the task's data.
    await redis.restart({
      persist: true,
      whileDown: async () => {
        await eventually(() => /mcpflow run pipeline cancelled/.test(runner.stderr), 'the fenced-off round ended');
        await new Promise((resolve) => setTimeout(resolve, 1000));
      },
    });
    const done = await finished(other, taskId);
    expect(done.status).toBe('completed');
    expect(violations('ended-offline', true)).toEqual([]);
  }, 90_000);

  test('Redis restarted mid-task (with its data saved): the round that cannot prove its hold ends; the task completes from its checkpoint', async () => {
    const { taskId, other } = await taskInFlight('restarted');
    await redis.restart({ persist: true });
    const done = await finished(other, taskId);
    expect(done.status).toBe('completed');
    expect(violations('restarted', true)).toEqual([]);
  }, 60_000);
});

test('the checker finds each violation: a step after a takeover, after a cancel, out of order, two steps twice, two run ids', () => {
  const line = (instance: string, step: string, run = 'r1'): SideEffect => ({ event: 'start', label: 't', step, run, instance, at: 0 });
  const expected = { steps: STEPS, completed: true };
  expect(
    fencingViolations(
      ['s1', 's2', 's3', 's4', 's5'].map((step) => line('a', step)),
      't',
      expected,
    ),
  ).toEqual([]);
  const takenOver = [line('a', 's1'), line('a', 's2'), line('b', 's2'), line('b', 's3'), line('a', 's3'), line('b', 's4'), line('b', 's5')];
  expect(fencingViolations(takenOver, 't', expected).join('\n')).toContain('s3 started on a after another instance took the round over');
  const afterCancel = [line('a', 's1'), { ...line('test', ''), event: 'cancel-acked' as const }, line('a', 's2')];
  expect(fencingViolations(afterCancel, 't', { steps: STEPS })).toEqual(['s2 started on a after tasks/cancel was acked']);
  const skipped = [line('a', 's1'), line('a', 's3')];
  expect(fencingViolations(skipped, 't', { steps: STEPS })[0]).toContain('s3 started after s1');
  const twice = [line('a', 's1'), line('a', 's1'), line('a', 's2'), line('a', 's2'), line('a', 's3'), line('a', 's4'), line('a', 's5')];
  expect(fencingViolations(twice, 't', expected)).toEqual(['more than the step in flight ran twice: s1, s2']);
  const runs = [line('a', 's1'), line('b', 's1', 'r2'), line('b', 's2', 'r2')];
  expect(fencingViolations(runs, 't', { steps: STEPS })[0]).toContain('2 run ids');
});
