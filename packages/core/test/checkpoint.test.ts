import 'reflect-metadata';
import { z } from 'zod';
import { Bind, Step, Workflow, field, promptArg } from '@mcpflow/decorators';
import { readWorkflowModel } from '../src/model/read-workflow';
import { MemoryReplayGuard } from '../src/adapter-kit/pause/memory-replay-guard';
import {
  CheckpointChain,
  StateSealer,
  continueWorkflowRound,
  executeWorkflowRound,
  openCheckpoint,
  planWorkflow,
  sealCheckpoint,
  type Host,
  type HostTool,
  type RoundResult,
  type ToolResult,
} from '../src/engine';

@Workflow({ name: 'release', arguments: { version: z.string(), token: z.string() }, sensitiveArguments: ['token'] })
class Release {
  @Step({ tool: 'build', args: { version: promptArg('version'), token: promptArg('token') } })
  @Bind('built')
  built!: { artifact: string };

  @Step({ tool: 'test', args: { artifact: field('built', 'artifact') } })
  @Bind('tested')
  tested!: { artifact: string };

  @Step({ tool: 'sign', args: { artifact: field('tested', 'artifact') } })
  @Bind('signed')
  signed!: { artifact: string };

  @Step({ tool: 'publish', args: { artifact: field('signed', 'artifact') } })
  published!: unknown;
}

const KEY = 'k'.repeat(32);
const plan = planWorkflow(readWorkflowModel(Release)!, () => {
  throw new Error('no templates here');
});
const args = { version: '1.2.0', token: 'tok-secret' };
const binding = { prompt: 'release', face: 'tool' as const };
const sealer = new StateSealer({ keys: [KEY] });
const pausing = { sealer, replayGuard: new MemoryReplayGuard() };

/** A host over plain tools that counts calls, keeps the run ids tools saw, and seals each checkpoint it is told. */
function releaseHost(): Host & { calls: string[]; runIds: Set<string>; checkpoints: string[] } {
  const calls: string[] = [];
  const runIds = new Set<string>();
  const checkpoints: string[] = [];
  return {
    calls,
    runIds,
    checkpoints,
    signal: new AbortController().signal,
    findTool: (): HostTool => ({ enabled: true }),
    toolInputs: () => [],
    validateToolInput: (_tool, _name, input) => ({ ok: true, args: input }),
    invokeTool: async (_tool, name, input, _signal, run): Promise<ToolResult> => {
      calls.push(name);
      runIds.add(run.id);
      const artifact = (input as { artifact?: string }).artifact ?? `app-${(input as { version: string }).version}`;
      return { content: [{ type: 'text', text: JSON.stringify({ artifact: `${artifact}+${name}` }) }] };
    },
    checkToolResult: (_tool, _name, value) => value as ToolResult,
    readResource: () => Promise.reject(new Error('no resources')),
    checkpoint: (state) => {
      const sealed = sealCheckpoint(state, plan, sealer, binding);
      if (!sealed.ok) throw new Error(sealed.reason);
      checkpoints.push(sealed.state);
    },
  };
}

function resultOf(round: RoundResult) {
  if (round.kind !== 'result') throw new Error(`expected a result, got ${round.kind}`);
  return round.result;
}

describe("the engine's checkpoint hook", () => {
  test('the host is told the state after each completed step; going on from the one after step k calls only the steps after k, with the same trace and run id', async () => {
    const whole = releaseHost();
    const uninterrupted = resultOf(await executeWorkflowRound(plan, args, whole, {}, pausing, undefined, binding));
    expect(whole.calls).toEqual(['build', 'test', 'sign', 'publish']);
    // The round's starting point, then one after each step.
    expect(whole.checkpoints).toHaveLength(5);
    expect(whole.checkpoints.join('')).not.toContain('tok-secret');

    for (const k of [0, 1, 2, 3]) {
      const state = openCheckpoint(whole.checkpoints[k], plan, args, sealer, binding);
      expect(state.position).toBe(k);
      const takeover = releaseHost();
      const continued = resultOf(await continueWorkflowRound(plan, takeover, {}, sealer, binding, state));
      expect(takeover.calls).toEqual(['build', 'test', 'sign', 'publish'].slice(k));
      expect(continued).toEqual(uninterrupted);
      expect(takeover.runIds).toEqual(whole.runIds);
      expect(JSON.stringify(continued)).not.toContain('tok-secret');
    }
  });

  test('a checkpoint opens only for its own workflow call: other arguments are refused', () => {
    const host = releaseHost();
    return executeWorkflowRound(plan, args, host, {}, pausing, undefined, binding).then(() => {
      expect(() => openCheckpoint(host.checkpoints[0], plan, { ...args, version: '9.9.9' }, sealer, binding)).toThrow(/requestState|state/);
    });
  });
});

describe("a chain of checkpoints (a task store keeps each step's delta, DESIGN §2.13)", () => {
  /** A host whose checkpoints are sealed as a chain: the whole state first, then each step's delta. */
  function chainHost(chain: CheckpointChain) {
    const host = releaseHost();
    return {
      ...host,
      checkpoint: (state: Parameters<NonNullable<Host['checkpoint']>>[0]) => {
        const sealed = chain.seal(state);
        if (!sealed.ok) throw new Error(sealed.reason);
        host.checkpoints.push(sealed.state);
      },
    };
  }

  test('each delta holds only what its step added: going on from the first k+1 calls only the steps after k, with the same result and run id', async () => {
    const whole = chainHost(new CheckpointChain(plan, sealer, binding));
    const uninterrupted = resultOf(await executeWorkflowRound(plan, args, whole, {}, pausing, undefined, binding));
    expect(whole.checkpoints).toHaveLength(5);
    const opened = whole.checkpoints.map(
      (checkpoint) => sealer.open(checkpoint, { ...binding, arguments: args }) as Record<string, unknown>,
    );
    // The first is a whole run; each later one is a delta that does not carry the earlier steps' bindings or messages again.
    expect(opened[0].delta).toBeUndefined();
    for (const [index, payload] of opened.slice(1).entries()) {
      const state = payload.state as { bindings: Record<string, unknown>; messages: unknown[] };
      expect(payload.delta).toMatchObject({ from: expect.any(Number) });
      expect(Object.keys(state.bindings)).toEqual(index < 3 ? [['built', 'tested', 'signed'][index]] : []);
      // Its step's call and result, and no message of the steps before it.
      const tools = ['build', 'test', 'sign', 'publish'];
      expect(state.messages).toHaveLength(2);
      expect(JSON.stringify(state.messages)).toContain(`Calling tool ${tools[index]} `);
      for (const earlier of tools.slice(0, index)) expect(JSON.stringify(state.messages)).not.toContain(`Calling tool ${earlier} `);
    }
    // Sealed alone, step k's checkpoint holds step k only: no sealed value grows with the steps before it.
    const sizes = whole.checkpoints.slice(1).map((checkpoint) => checkpoint.length);
    expect(Math.max(...sizes)).toBeLessThan(whole.checkpoints[0].length + 2000);

    for (const k of [0, 1, 2, 3]) {
      const chain = new CheckpointChain(plan, sealer, binding);
      const state = chain.open(whole.checkpoints.slice(0, k + 1), args);
      expect(state.position).toBe(k);
      const takeover = chainHost(chain);
      const continued = resultOf(await continueWorkflowRound(plan, takeover, {}, sealer, binding, state));
      expect(takeover.calls).toEqual(['build', 'test', 'sign', 'publish'].slice(k));
      expect(continued).toEqual(uninterrupted);
      expect(takeover.runIds).toEqual(whole.runIds);
      // Its own checkpoints go on from the chain: opened after the first k+1, they come to the same run as the uninterrupted one's.
      const again = new CheckpointChain(plan, sealer, binding).open([...whole.checkpoints.slice(0, k + 1), ...takeover.checkpoints], args);
      expect(again.position).toBe(4);
      expect(again.bindings).toEqual(new CheckpointChain(plan, sealer, binding).open(whole.checkpoints, args).bindings);
    }
    expect(whole.checkpoints.join('')).not.toContain('tok-secret');
  });

  test('a chain opens only whole: a delta alone, or as a requestState, is refused', async () => {
    const whole = chainHost(new CheckpointChain(plan, sealer, binding));
    await executeWorkflowRound(plan, args, whole, {}, pausing, undefined, binding);
    expect(() => new CheckpointChain(plan, sealer, binding).open(whole.checkpoints.slice(1), args)).toThrow(
      /do not start with a whole run/,
    );
    expect(() => openCheckpoint(whole.checkpoints[2], plan, args, sealer, binding)).toThrow(/not a whole run/);
  });
});

describe("the engine's beforeStep hook", () => {
  test('asked before each step; a host that aborts its signal there stops the run before the step: its tool is never called, and no checkpoint follows', async () => {
    const controller = new AbortController();
    const asked: number[] = [];
    const host = {
      ...releaseHost(),
      signal: controller.signal,
      // A fenced round that finds, before the third step, that it no longer holds its task.
      beforeStep: async (state: { position: number }) => {
        asked.push(state.position);
        if (state.position === 2) controller.abort();
      },
    };
    const result = resultOf(await executeWorkflowRound(plan, args, host, {}, pausing, undefined, binding)) as {
      _meta: Record<string, { status: string; stoppedAt?: string }>;
    };
    expect(asked).toEqual([0, 1, 2]);
    expect(host.calls).toEqual(['build', 'test']);
    expect(host.checkpoints).toHaveLength(3);
    expect(result._meta['mcpflow/execution']).toMatchObject({ status: 'cancelled', stoppedAt: 'signed' });
  });
});
