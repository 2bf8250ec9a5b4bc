import { applyLimits, executeWorkflow, type ExecutionOptions, type ReplayGuard, type WorkflowPlan } from '../../engine';
import type { AdapterLine } from '../adapter-line';
import type { ServerRegistry } from '../registry/server-registry';
import type { WorkflowServingOptions } from '../workflow-serving-options';
import { memoryReplayGuard } from '../pause/memory-replay-guard';
import type { PauseOptions } from '../pause/pause-options';
import { AdapterHost } from './adapter-host';
import { runRound } from './run-round';
import { stateSealer } from './state-sealers';

/** A workflow's arguments once `prompts/get` parsed them. */
export type WorkflowArguments = Readonly<Record<string, string | undefined>>;

/**
 * How a server runs its workflows for a request, on either line: the one place that decides
 * whether a run asks in place or goes by rounds (pause with `input_required`, resume from the
 * sealed state), and builds the engine's host for the request.
 *
 * @example
 * ```ts
 * const runner = new WorkflowRunner(server, line, registry, options); // options out of range throw here
 * const result = await runner.run(plan, asks, args, context);
 * ```
 */
export class WorkflowRunner<Server, Context> {
  private readonly execution: ExecutionOptions;
  private readonly askTimeoutMs?: number;
  private readonly pause?: PauseOptions;
  private readonly replayGuard: ReplayGuard;

  constructor(
    private readonly server: Server,
    private readonly line: AdapterLine<Server, Context>,
    private readonly registry: ServerRegistry,
    options: WorkflowServingOptions = {},
  ) {
    // Out-of-range limits and unusable keys throw when the server is made, not on the first request.
    this.execution = { onStep: options.onStep, onRunEnd: options.onRunEnd, ...applyLimits(options) };
    this.askTimeoutMs = options.askTimeoutMs;
    this.pause = options.pause;
    if (this.pause) stateSealer(this.pause);
    this.replayGuard = replayGuardOf(this.pause);
  }

  /**
   * Runs `plan` for one request. `asks` says whether the workflow has questions: only then can the
   * run ask the client, or pause.
   */
  run(plan: WorkflowPlan, asks: boolean, args: WorkflowArguments, context: Context): Promise<unknown> {
    const { line, server } = this;
    const rounds = line.rounds;
    if (rounds?.servesRounds(server)) {
      const requestState = rounds.requestState(context);
      if (asks || requestState !== undefined) {
        const host = new AdapterHost(line, this.registry, context, rounds.channel(server, context));
        const pausing = { sealer: stateSealer(this.pause), replayGuard: this.replayGuard };
        return runRound(line, rounds, plan, args, host, this.execution, pausing, requestState);
      }
    }
    const asking = asks ? line.askInPlace(server, context, this.askTimeoutMs) : undefined;
    return executeWorkflow(plan, args, new AdapterHost(line, this.registry, context, asking), this.execution);
  }
}

/** The configured guard, checked now rather than on the first resume; by default the process's own. */
function replayGuardOf(pause: PauseOptions | undefined): ReplayGuard {
  const guard = pause?.replayGuard;
  if (guard === undefined) return memoryReplayGuard();
  if (typeof (guard as Partial<ReplayGuard> | null)?.consume !== 'function') {
    throw new TypeError(
      'mcpflow pause.replayGuard: expected a replay guard — memoryReplayGuard() or redisReplayGuard(client), or an object with consume(round) — ' +
        `not ${guard === null ? 'null' : typeof guard}.`,
    );
  }
  return guard;
}
