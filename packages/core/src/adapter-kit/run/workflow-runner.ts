import { applyLimits, executeWorkflow, type ExecutionOptions, type StateSealingOptions, type WorkflowPlan } from '../../engine';
import type { AdapterLine } from '../adapter-line';
import type { ServerRegistry } from '../registry/server-registry';
import type { WorkflowServingOptions } from '../workflow-serving-options';
import { AdapterHost } from './adapter-host';
import { applyAskLimits, type AskLimits } from './ask-limits';
import { PendingAsks } from './pending-asks';
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
  private readonly askLimits: AskLimits;
  private readonly pendingAsks: PendingAsks;
  private readonly pause?: StateSealingOptions;

  constructor(
    private readonly server: Server,
    private readonly line: AdapterLine<Server, Context>,
    private readonly registry: ServerRegistry,
    options: WorkflowServingOptions = {},
  ) {
    // Out-of-range limits and unusable keys throw when the server is made, not on the first request.
    this.execution = { onStep: options.onStep, onRunEnd: options.onRunEnd, ...applyLimits(options) };
    this.askLimits = applyAskLimits(options);
    this.pendingAsks = new PendingAsks(this.askLimits);
    this.pause = options.pause;
    if (this.pause) stateSealer(this.pause);
  }

  /**
   * Runs `plan` for one request. `asks` says whether the workflow has questions: only then can the
   * run ask the client, or pause. Asking in place, a run is refused (rejects with
   * `PendingAsksRefusal`, before any step) while its session or the process waits for all the
   * answers the server's caps allow.
   */
  run(plan: WorkflowPlan, asks: boolean, args: WorkflowArguments, context: Context): Promise<unknown> {
    const { line, server } = this;
    const rounds = line.rounds;
    if (rounds?.servesRounds(server)) {
      const requestState = rounds.requestState(context);
      if (asks || requestState !== undefined) {
        const host = new AdapterHost(line, this.registry, context, rounds.channel(server, context));
        return runRound(line, rounds, plan, args, host, this.execution, stateSealer(this.pause), requestState);
      }
    }
    if (!asks) return executeWorkflow(plan, args, new AdapterHost(line, this.registry, context), this.execution);
    const session = line.request.sessionId(context);
    const refusal = this.pendingAsks.refusal(session);
    if (refusal) return Promise.reject(refusal);
    const asking = this.pendingAsks.bound(line.askInPlace(server, context, this.askLimits.askTimeoutMs), session);
    return executeWorkflow(plan, args, new AdapterHost(line, this.registry, context, asking), this.execution);
  }
}
