import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { REDIS_REQUIRED, redisServerInstalled, startRedisServer, type RedisServer } from '../helpers/redis-server';
import { callTool, resumeTask, TaskFailedError, TaskInputError } from '@mcpflow/client';
import { RawTaskWire, type RpcAnswer } from '../helpers/raw-task-wire';
import { connectHttp, startTask } from '../helpers/task-serving';

/**
 * A rolling deploy through real processes (DESIGN §2.16): instances of build v1 of four release
 * workflows (release-v1.js) share a redis-server with `bullmqTasks`; runs are left waiting on them —
 * a prompt run paused on 2026-07-28 (`requestState`), a task waiting `input_required`, a task in the
 * middle of a step, and 2025 sessions waiting on an in-place ask — then the v1 instances stop one
 * by one (SIGTERM, then kill -9 in the middle of a step) while an instance of build v2
 * (release-v2.js) starts, and everything resumes there. Each workflow is one case of what v2
 * changed: a step appended, only guidance/description/timeouts, a step inserted without keeping
 * v1, a step inserted with v1 kept in `previous`. Each process logs its tool calls (`<tool>
 * <release>`), which tell which steps ran where.
 */
const KEY = 'the fleet-wide state key of the rolling deploy, 32+ bytes';
const CASES = ['appended', 'reworded', 'inserted', 'kept'] as const;
type Case = (typeof CASES)[number];
const answer = (target: string) => ({ 'shipped/target': { action: 'accept', content: { target } } });

/** How a task ended for the client that followed it (`resumeTask`): completed with its result, or failed with its error. */
interface TaskEnd {
  readonly status: 'completed' | 'failed';
  readonly result?: unknown;
  readonly error?: { readonly code: number; readonly message: string };
}

/** Follows a task on `url` to its end with `resumeTask`, each question answered `target`. */
async function followTo(url: URL, taskId: string, target: string): Promise<TaskEnd> {
  const client = await connectHttp(url);
  try {
    const result = await resumeTask(client, taskId, { pollIntervalMs: 20, onInput: () => answer(target) });
    return { status: 'completed', result };
  } catch (error) {
    if (error instanceof TaskFailedError) return { status: 'failed', error: error.error };
    throw error;
  } finally {
    await client.close();
  }
}

interface Instance {
  readonly child: ChildProcess;
  readonly url: URL;
  /** The tool calls this process made, in order: `<tool> <release>`. */
  calls(): Promise<string[]>;
  /** What it wrote on stderr (DEBUG=mcpflow lines). */
  readonly stderr: () => string;
}

const children: ChildProcess[] = [];
/** The instances stop() was asked to stop. */
const stopping = new Set<ChildProcess>();

async function startInstance(redis: RedisServer, build: 'v1' | 'v2'): Promise<Instance> {
  const env = {
    ...process.env,
    MCPFLOW_TEST_BUILD: build,
    MCPFLOW_TEST_REDIS_PORT: String(redis.port),
    MCPFLOW_TEST_KEYS: JSON.stringify([KEY]),
    DEBUG: 'mcpflow',
  };
  const child = spawn(process.execPath, [path.join(__dirname, 'deploy-instance.js')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  children.push(child);
  // An instance that dies unasked (not by stop()) says why: its stderr, on the test's.
  child.once('exit', (code, signal) => {
    if (!stopping.has(child)) process.stderr.write(`rolling-deploy instance ${build} exited (${code ?? signal}) unasked:\n${stderr}\n`);
  });
  const ports = await new Promise<{ port: number; probe: number }>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((candidate) => candidate.startsWith('{'));
      if (line) resolve(JSON.parse(line) as { port: number; probe: number });
    });
    child.on('exit', (code) => reject(new Error(`instance exited with ${code}: ${stderr}`)));
  });
  return {
    child,
    url: new URL(`http://127.0.0.1:${ports.port}/mcp`),
    calls: async () => (await (await fetch(`http://127.0.0.1:${ports.probe}/`)).json()) as string[],
    stderr: () => stderr,
  };
}

/** Stops an instance: SIGTERM (its close() hands its rounds over) or SIGKILL; resolves once it exited. */
function stop(instance: Instance, signal: 'SIGTERM' | 'SIGKILL'): Promise<void> {
  return new Promise((resolve) => {
    stopping.add(instance.child);
    if (instance.child.exitCode !== null || instance.child.signalCode !== null) return resolve();
    instance.child.once('exit', () => resolve());
    instance.child.kill(signal);
  });
}

/** Waits, at most `limitMs`, until `condition` holds; a functional wait, not a timing assertion. */
async function eventually(condition: () => Promise<boolean>, limitMs = 60_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A 2025-era client (a session over Streamable HTTP) whose elicitations wait until the test answers them. */
async function sessionClient(url: URL): Promise<{ client: Client; asked: Promise<void>; answer(target: string): void }> {
  let asked!: () => void;
  let reply!: (target: string) => void;
  const askedPromise = new Promise<void>((resolve) => (asked = resolve));
  const replied = new Promise<string>((resolve) => (reply = resolve));
  const client = new Client({ name: 'rolling-deploy-2025', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler('elicitation/create', async () => {
    asked();
    return { action: 'accept', content: { target: await replied } } as never;
  });
  await client.connect(new StreamableHTTPClientTransport(url));
  return { client, asked: askedPromise, answer: reply };
}

const available = redisServerInstalled();
if (!available && REDIS_REQUIRED) {
  test('redis-server is installed (CI runs the rolling deploy against a real server)', () => {
    throw new Error('redis-server is not installed: `apt-get install -y redis-server` (.ci/run does it when missing)');
  });
}
const describeWithRedis = available ? describe : describe.skip;

let redis: RedisServer;
afterAll(async () => {
  await Promise.all(children.map((child) => stop({ child } as Instance, 'SIGKILL')));
  await redis?.stop();
});

describeWithRedis('a rolling deploy from build v1 to build v2', () => {
  let v2: Instance;
  let v1Calls: string[];
  /** Per case: the prompt's retry, the waiting task's and the mid-step task's ends, on v2. */
  const ended: Record<Case, { prompt: RpcAnswer; waiting: TaskEnd; midStep: TaskEnd }> = {} as never;
  /** The 2025 sessions: one answered on its v1 instance after v2 started, one whose instance stopped. */
  let drained: Promise<{ _meta?: Record<string, unknown> }>;
  let lost: Promise<unknown>;

  beforeAll(async () => {
    redis = await startRedisServer();
    const [a, b] = [await startInstance(redis, 'v1'), await startInstance(redis, 'v1')];
    const onA = RawTaskWire.overHttp(a.url);
    const agentOnA = await connectHttp(a.url);
    const paused: Partial<Record<Case, RpcAnswer>> = {};
    const tasks: Partial<Record<Case, { waiting: string; midStep: string }>> = {};
    for (const kase of CASES) {
      const name = `release_${kase}`;
      paused[kase] = await onA.request('prompts/get', { name, arguments: { release: `prompt-${kase}` } }, { tasks: false });
      // The user leaves the question for later: the call rejects once the task asks, and the task waits.
      const waiting = (await callTool(agentOnA, { name, arguments: { release: `wait-${kase}` } }).catch(
        (error: unknown) => error,
      )) as TaskInputError;
      expect(waiting).toBeInstanceOf(TaskInputError);
      const midStep = await startTask(agentOnA, { name, arguments: { release: `hang-${kase}` } });
      tasks[kase] = { waiting: waiting.taskId, midStep: midStep.taskId };
    }
    // Every mid-step task is inside `sign` on one of the v1 instances.
    const v1Signs = async () => [...(await a.calls()), ...(await b.calls())].filter((call) => /^sign hang-/.test(call)).length;
    await eventually(async () => (await v1Signs()) >= CASES.length);
    // Two 2025 sessions wait on the in-place question of release_appended, one on each v1 instance.
    const [onB2025, onA2025] = [await sessionClient(b.url), await sessionClient(a.url)];
    drained = onB2025.client.getPrompt({ name: 'release_appended', arguments: { release: 'session-drained' } });
    lost = onA2025.client.getPrompt({ name: 'release_appended', arguments: { release: 'session-lost' } }).catch((error: Error) => error);
    await Promise.all([onB2025.asked, onA2025.asked]);

    // The deploy: a stops (SIGTERM), v2 starts, b's open session is answered there, then b is killed mid-step.
    const aCalls = await a.calls();
    await stop(a, 'SIGTERM');
    v2 = await startInstance(redis, 'v2');
    onB2025.answer('staging');
    await drained;
    v1Calls = [...aCalls, ...(await b.calls())];
    await stop(b, 'SIGKILL');
    await Promise.all([onA2025.client.close(), onB2025.client.close(), agentOnA.close()]);

    // Everything resumes on v2: the prompts' retries, the waiting tasks' answers, the mid-step tasks taken over.
    const onV2 = RawTaskWire.overHttp(v2.url);
    for (const kase of CASES) {
      const name = `release_${kase}`;
      const prompt = await onV2.request(
        'prompts/get',
        {
          name,
          arguments: { release: `prompt-${kase}` },
          inputResponses: answer('staging'),
          requestState: paused[kase]!.result!.requestState,
        },
        { tasks: false },
      );
      const { waiting, midStep } = tasks[kase]!;
      ended[kase] = { prompt, waiting: await followTo(v2.url, waiting, 'production'), midStep: await followTo(v2.url, midStep, 'staging') };
    }
  }, 240_000);

  /** The tool calls v2 made for `release`. */
  const onV2 = async (release: string) =>
    (await v2.calls()).filter((call) => call.endsWith(` ${release}`)).map((call) => call.split(' ')[0]);

  test('before the deploy, v1 ran each run up to where it waits (the mid-step tasks inside sign)', () => {
    for (const kase of CASES) {
      expect(v1Calls.filter((call) => call === `build prompt-${kase}` || call === `sign prompt-${kase}`)).toHaveLength(2);
      expect(v1Calls).toContain(`sign hang-${kase}`);
      expect(v1Calls).not.toContain(`ship wait-${kase}`);
    }
  });

  test.each([
    ['appended', ['ship', 'announce'], '2'],
    ['reworded', ['ship'], '2'],
    ['kept', ['ship'], '1'],
  ] as const)('%s: the paused prompt run resumes on v2 and runs %p; _meta names version %s', async (kase, ran, version) => {
    const { prompt } = ended[kase];
    expect(prompt.error).toBeUndefined();
    expect(prompt.result!._meta).toMatchObject({ 'mcpflow/execution': { status: 'completed' }, 'mcpflow/run': { version } });
    expect(await onV2(`prompt-${kase}`)).toEqual(ran);
    expect(v2.stderr()).toContain(`mcpflow run release_${kase} resumed: prompts/get release_${kase}, round 2, version ${version}`);
  });

  test.each([
    ['appended', ['ship', 'announce'], '2'],
    ['reworded', ['ship'], '2'],
    ['kept', ['ship'], '1'],
  ] as const)('%s: the task waiting input_required resumes on v2 and runs %p; its result names version %s', async (kase, ran, version) => {
    const { waiting } = ended[kase];
    expect(waiting.status).toBe('completed');
    expect(JSON.stringify(waiting)).toContain(`"mcpflow/run":{"version":"${version}"}`);
    expect(await onV2(`wait-${kase}`)).toEqual(ran);
    expect(v2.stderr()).toMatch(
      new RegExp(`mcpflow run release_${kase} resumed: tools/call release_${kase}, round \\d+, version ${version}`),
    );
  });

  test.each([
    ['appended', ['sign', 'ship', 'announce'], '2'],
    ['reworded', ['sign', 'ship'], '2'],
    ['kept', ['sign', 'ship'], '1'],
  ] as const)('%s: the task killed mid-step on v1 is taken over by v2 from its checkpoint and runs %p', async (kase, ran, version) => {
    const { midStep } = ended[kase];
    expect(midStep.status).toBe('completed');
    expect(JSON.stringify(midStep)).toContain(`"mcpflow/run":{"version":"${version}"}`);
    // build completed on v1 and is not run again; sign, in flight when v1 died, runs again.
    expect(await onV2(`hang-${kase}`)).toEqual(ran);
  });

  test('a step inserted without previous: each state is refused, naming the workflow and the step it waited at; nothing runs', async () => {
    const { prompt, waiting, midStep } = ended.inserted;
    expect(prompt.error?.message).toMatch(/another version of workflow 'release_inserted', waiting at step 'shipped'.*previous/);
    for (const [task, at] of [
      [waiting, 'shipped'],
      [midStep, 'signed'],
    ] as const) {
      expect(task.status).toBe('failed');
      expect(task.error!.message).toMatch(
        new RegExp(
          `task of tool release_inserted cannot go on: .*another version of workflow 'release_inserted', waiting at step '${at}'.*previous`,
        ),
      );
    }
    for (const release of ['prompt-inserted', 'wait-inserted', 'hang-inserted']) expect(await onV2(release)).toEqual([]);
  });

  test('v2 keeps serving: a new run starts on v2 (the inserted step runs), named version 2', async () => {
    const onV2Client = RawTaskWire.overHttp(v2.url);
    for (const kase of ['inserted', 'kept'] as const) {
      const fresh = await onV2Client.request(
        'prompts/get',
        { name: `release_${kase}`, arguments: { release: `fresh-${kase}` } },
        { tasks: false },
      );
      expect(fresh.result).toMatchObject({ resultType: 'input_required' });
      expect(await onV2(`fresh-${kase}`)).toEqual(['build', 'scan', 'sign']);
    }
    expect(v2.stderr()).toContain('mcpflow run release_kept started: prompts/get release_kept, 4 steps, version 2');
  });

  test('2025 sessions: an open session is served by its v1 instance to the end; one whose instance stopped fails, and its run is gone', async () => {
    const finished = await drained;
    expect(finished._meta).toMatchObject({ 'mcpflow/execution': { status: 'completed' }, 'mcpflow/run': { version: '1' } });
    expect(v1Calls).toContain('ship session-drained');
    expect(v1Calls).not.toContain('announce session-drained');
    const error = (await lost) as Error;
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toMatch(/closed|terminated|shut/i);
    expect(v1Calls).not.toContain('ship session-lost');
    expect(await onV2('session-lost')).toEqual([]);
  });
});
