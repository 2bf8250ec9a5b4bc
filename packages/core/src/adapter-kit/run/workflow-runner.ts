import { applyLimits, executeWorkflow, type ExecutionOptions, type StateSealingOptions, type WorkflowPlan } from '../../engine';
import { isPromiseLike } from '../../util/is-promise-like';
import type { AdapterLine } from '../adapter-line';
import type { ServerRegistry } from '../registry/server-registry';
import type { RequestObserver } from '../telemetry/request-observer';
import { RunObserving } from '../telemetry/run-observing';
import type { WorkflowServingOptions } from '../workflow-serving-options';
import { AdapterHost } from './adapter-host';
import type { RunFace } from './run-face';
import { runRound } from './run-round';
import { stateSealer } from './state-sealers';

/** A workflow's arguments once `prompts/get` parsed them. */
export type WorkflowArguments = Readonly<Record<string, string | undefined>>;

/**
 * How a server runs its workflows for a request, on either line: the one place that decides
 * whether a run asks in place or goes by rounds (pause with `input_required`, resume from the
 * sealed state), and builds the engine's host for the request — with what observes the run
 * (its span, the debug log) when anything does.
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
  private readonly pause?: StateSealingOptions;
  private readonly observing: RunObserving;

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
    this.observing = new RunObserving(options);
  }

  /**
   * Runs `plan` for one request. `asks` says whether the workflow has questions: only then can the
   * run ask the client, or pause. `face` is the one the request came through (its run span's name);
   * default: the workflow's prompt.
   */
  run(plan: WorkflowPlan, asks: boolean, args: WorkflowArguments, context: Context, face?: RunFace): Promise<unknown> {
    const observer = this.observing.forRun(face, plan, this.line.request.meta(context));
    if (isPromiseLike(observer)) return observer.then((loaded) => this.observed(plan, asks, args, context, loaded));
    return this.observed(plan, asks, args, context, observer);
  }

  /** The run, and what the request threw (outside the run's own outcomes) told to its observer. */
  private observed(
    plan: WorkflowPlan,
    asks: boolean,
    args: WorkflowArguments,
    context: Context,
    observer: RequestObserver | undefined,
  ): Promise<unknown> {
    const running = this.runWith(plan, asks, args, context, observer);
    if (!observer) return running;
    return running.catch((error: unknown) => {
      observer.threw(error);
      throw error;
    });
  }

  private runWith(
    plan: WorkflowPlan,
    asks: boolean,
    args: WorkflowArguments,
    context: Context,
    observer: RequestObserver | undefined,
  ): Promise<unknown> {
    const { line, server } = this;
    const rounds = line.rounds;
    if (rounds?.servesRounds(server)) {
      const requestState = rounds.requestState(context);
      if (asks || requestState !== undefined) {
        const host = new AdapterHost(line, this.registry, context, rounds.channel(server, context), observer);
        return runRound(line, rounds, plan, args, host, this.execution, stateSealer(this.pause), requestState);
      }
    }
    const asking = asks ? line.askInPlace(server, context, this.askTimeoutMs) : undefined;
    return executeWorkflow(plan, args, new AdapterHost(line, this.registry, context, asking, observer), this.execution);
  }
}
