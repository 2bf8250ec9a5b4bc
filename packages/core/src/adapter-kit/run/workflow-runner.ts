import {
  applyLimits,
  continueWorkflowRound,
  executeWorkflow,
  executeWorkflowRound,
  rerunExecution,
  CheckpointChain,
  type AskRequest,
  type RoundsAskChannel,
  type StateSealer,
  type AppliedLimits,
  type CarriedTraceContext,
  type ExecutionOptions,
  type InPlaceAskChannel,
  type PromptResult,
  type ReplayGuard,
  type RunEndEvent,
  type RunState,
  type WorkflowPlan,
} from '../../engine';
import { isPromiseLike } from '../../util/is-promise-like';
import type { AdapterLine } from '../adapter-line';
import type { ServerRegistry } from '../registry/server-registry';
import type { RequestObserver } from '../telemetry/request-observer';
import { RunObserving } from '../telemetry/run-observing';
import type { WorkflowServingOptions } from '../workflow-serving-options';
import { memoryReplayGuard } from '../pause/memory-replay-guard';
import { devMode } from '../dev/dev-mode';
import { recordRun } from '../dev/record-run';
import { devRunRecords, type RunRecords } from '../dev/run-records';
import type { PauseOptions } from '../pause/pause-options';
import { AdapterHost } from './adapter-host';
import { carriedSecrets } from './carried-secrets';
import type { RunFace } from './run-face';
import { applyAskLimits, type AskLimits } from './ask-limits';
import { PendingAsks } from './pending-asks';
import { RunAdmission } from './run-admission';
import { principalOption } from './request-principal';
import { RunSlot } from './run-slot';
import { runRound } from './run-round';
import { progressStatus, startingStatus, waitingStatus, type StepStatus } from './running-step';
import { stateSealer } from './state-sealers';

/** A workflow's arguments once `prompts/get` (or `tools/call`) parsed them. */
export type WorkflowArguments = Readonly<Record<string, string | undefined>>;

/**
 * How a request calls a workflow: through its prompt or its tool, and by which name. The runner
 * binds a sealed state to it, and reports under it (the span of a run is `prompts/get {name}` or
 * `tools/call {name}`).
 */
export interface WorkflowCall {
  readonly face: 'prompt' | 'tool';
  /** The prompt's or the tool's name, as the client calls it. */
  readonly name: string;
  /**
   * Run in process as a step of another workflow: it never pauses by rounds (the outer request's
   * `requestState` is not its own), asks in place only on a 2025 session, and reports no progress
   * of its own (the outer run's steps do).
   */
  readonly nested?: boolean;
  /** The face's result from the run's prompt result and its end (status, redacted outputs); absent: the prompt result. */
  readonly finish?: (result: PromptResult, end: RunEndEvent) => unknown;
  /**
   * A round of a task: how long the task lives. A step without `timeoutMs` may take that long
   * (DESIGN §2.13 "Long steps": tasks are for steps longer than a request), instead of the default
   * meant for a request; `defaultStepTimeoutMs: false` still means no limit.
   */
  readonly taskTtlMs?: number;
}

/**
 * How a server runs its workflows for a request, on either line: the one place that decides
 * whether a run asks in place or goes by rounds (pause with `input_required`, resume from the
 * sealed state), and builds the engine's host for the request — with what observes the run
 * (its span, the debug log) when anything does.
 *
 * @example
 * ```ts
 * const runner = new WorkflowRunner(server, line, registry, options); // options out of range throw here
 * const result = await runner.run(plan, asks, args, context, { face: 'prompt', name: 'get_hint' });
 * ```
 */
export class WorkflowRunner<Server, Context> {
  /** The limits every run applies, defaults filled in. */
  readonly limits: AppliedLimits;
  private readonly execution: ExecutionOptions;
  private readonly askLimits: AskLimits;
  private readonly pendingAsks: PendingAsks;
  private readonly admission: RunAdmission;
  private readonly pause?: PauseOptions;
  private readonly replayGuard: ReplayGuard;
  private readonly observing: RunObserving;
  /** The process's recorded runs, in dev mode only (`dev: true` or `MCPFLOW_DEV=1`): outside it nothing is recorded. */
  readonly records?: RunRecords;

  constructor(
    private readonly server: Server,
    private readonly line: AdapterLine<Server, Context>,
    private readonly registry: ServerRegistry,
    options: WorkflowServingOptions = {},
  ) {
    // Out-of-range limits and unusable keys throw when the server is made, not on the first request.
    this.limits = applyLimits(options);
    this.execution = { onStep: options.onStep, onRunEnd: options.onRunEnd, ...this.limits };
    this.askLimits = applyAskLimits(options);
    this.pendingAsks = new PendingAsks(this.askLimits);
    this.admission = new RunAdmission(options);
    principalOption(options.principal);
    this.pause = options.pause;
    if (this.pause) stateSealer(this.pause);
    this.replayGuard = replayGuardOf(this.pause);
    this.observing = new RunObserving(options);
    if (devMode(options.dev)) this.records = devRunRecords();
  }

  /**
   * Runs `plan` for one request. `asks` says whether the workflow has questions: only then can the
   * run ask the client, or pause. `call` is the face and name the request came through: the sealed
   * state is bound to it, and the run span named after it (`prompts/get {name}`, `tools/call {name}`).
   * Asking in place, a run is refused (rejects with `PendingAsksRefusal`, before any step) while its
   * session or the process waits for all the answers the server's caps allow.
   */
  run(plan: WorkflowPlan, asks: boolean, args: WorkflowArguments, context: Context, call: WorkflowCall): Promise<unknown> {
    const face: RunFace = { method: call.face === 'tool' ? 'tools/call' : 'prompts/get', name: call.name };
    // A nested run reports under the calling step's span (the active context), not the outer request's trace context.
    const meta = call.nested ? undefined : this.line.request.meta(context);
    return this.observed(face, plan, meta, undefined, (observer) => this.admitted(plan, asks, args, context, call, observer));
  }

  /**
   * Runs a recorded run again for a dev server's `mcpflow/rerun` (DESIGN §2.15): from the start with
   * `args`, or — given `rerun.boundary`, the run's recorded state before a step — from that step, the
   * earlier steps' outputs as the server recorded them. Asks in place only (a rerun never pauses by
   * rounds). The new run is recorded as a rerun of `rerun.origin` (its result's
   * `_meta["mcpflow/run"].from`) and its run span links to the origin's.
   */
  rerun(plan: WorkflowPlan, asks: boolean, args: WorkflowArguments, context: Context, call: WorkflowCall, rerun: Rerun): Promise<unknown> {
    const face: RunFace = { method: call.face === 'tool' ? 'tools/call' : 'prompts/get', name: call.name };
    return this.observed(face, plan, this.line.request.meta(context), rerun.originTrace, (observer) =>
      this.admitted(plan, asks, args, context, call, observer, rerun),
    );
  }

  /**
   * `running` under the run's observer (its span, the debug log), when anything observes: what it
   * throws (outside the run's own outcomes) is told to the observer, which ends the span with it.
   */
  private observed<T>(
    face: RunFace,
    plan: WorkflowPlan,
    meta: Readonly<Record<string, unknown>> | undefined,
    origin: CarriedTraceContext | undefined,
    running: (observer: RequestObserver | undefined) => Promise<T>,
  ): Promise<T> {
    const observing = this.observing.forRun(face, plan, meta, origin);
    const start = (observer: RequestObserver | undefined): Promise<T> => {
      const run = running(observer);
      if (!observer) return run;
      return run.catch((error: unknown) => {
        observer.threw(error);
        throw error;
      });
    };
    return isPromiseLike(observing) ? observing.then(start) : start(observing);
  }

  /**
   * One round of a workflow tool run as a task (DESIGN §2.13): from the start, or from `state` (the
   * sealed state the last round paused with, or the `requestState` of the MRTR round that came
   * before the task) with the answers on `asking`. Sealed with `sealer` (the task's, which lives as
   * long as the task); the run span continues the trace of the request that made the task. A
   * `durable` round checkpoints each completed step and goes on from its last checkpoint. Throws
   * `SealedStateError` for a state it will not resume from.
   */
  async taskRound(
    plan: WorkflowPlan,
    args: WorkflowArguments,
    context: Context,
    call: WorkflowCall,
    asking: RoundsAskChannel,
    state: string | undefined,
    sealer: StateSealer,
    durable?: DurableRound,
    status?: (status: StepStatus) => Promise<void>,
  ): Promise<TaskRoundOutcome> {
    const face: RunFace = { method: 'tools/call', name: call.name };
    // A round counts under maxConcurrentRuns like any run, and waits for a place in a lane of the server's task rounds.
    return this.holding(this.admission.enterRound(this.line.request.signal(context)), () =>
      this.observed(face, plan, this.line.request.meta(context), undefined, (observer) =>
        this.taskRoundWith(plan, args, context, call, asking, state, sealer, durable, observer, status),
      ),
    );
  }

  /** `taskRound` once its observer is known. */
  private async taskRoundWith(
    plan: WorkflowPlan,
    args: WorkflowArguments,
    context: Context,
    call: WorkflowCall,
    asking: RoundsAskChannel,
    state: string | undefined,
    sealer: StateSealer,
    durable: DurableRound | undefined,
    observer: RequestObserver | undefined,
    status: ((status: StepStatus) => Promise<void>) | undefined,
  ): Promise<TaskRoundOutcome> {
    const ttl = call.taskTtlMs;
    const long = ttl !== undefined && this.execution.defaultStepTimeoutMs !== false;
    const execution = long ? { ...this.execution, defaultStepTimeoutMs: ttl } : this.execution;
    const finishing = finishingOptions(execution, call.finish!);
    const host = new AdapterHost(this.line, this.registry, context, asking, false, observer);
    // The engine's progress texts name steps only (never a value): the running one becomes the task's statusMessage.
    if (status) host.notifyProgress = ({ message }) => tellStatus(progressStatus(plan, message ?? ''), status);
    const pausing = { sealer, replayGuard: this.replayGuard, client: this.line.request.client(context) };
    const binding = { prompt: call.name, face: 'tool' } as const;
    // Each checkpoint holds only what its step added (a delta on the ones before): the arguments are the task's, stored once.
    const chain = durable && new CheckpointChain(plan, sealer, binding);
    if (durable) {
      // A state too big to seal is not kept: a round that takes over goes on from the last one that was.
      // With it, the step the run starts next (the statusMessage its progress will tell), in the same write;
      // past the last step, none (the round's end takes its place).
      host.checkpoint = (reached) => {
        const final = reached.position >= plan.steps.length;
        const sealed = chain!.seal(reached);
        const next = final ? undefined : startingStatus(plan, reached.position);
        return sealed.ok ? durable.save(sealed.state, next, final) : undefined;
      };
      host.beforeStep = () => durable.beforeStep();
    }
    const round = !durable?.checkpoints?.length
      ? await executeWorkflowRound(plan, args, host, finishing.options, pausing, state, binding)
      : await continueWorkflowRound(
          plan,
          host,
          finishing.options,
          sealer,
          binding,
          chain!.open(durable.checkpoints, args),
          pausing.replayGuard,
        );
    if (round.kind === 'input-required') {
      if (status) await tellStatus(waitingStatus(plan, round.inputRequests), status);
      return { kind: 'input-required', inputRequests: round.inputRequests, state: round.requestState };
    }
    return { kind: 'result', result: finishing.finish(round.result) };
  }

  /**
   * A request's run counted under `maxConcurrentRuns` and `maxConcurrentRunsPerSession` while it
   * executes: it waits for a place when the process or its session runs all it may, and is refused
   * (rejects with `ConcurrentRunsRefusal`) before any step only when the queue is full
   * (`maxQueuedRuns`) or it waited `queueTimeoutMs`; its request cancelled, it leaves the queue.
   * While it waits for answers asked in place it is not counted (its `RunSlot` gives its place up,
   * and takes it back when the answer comes): waiting runs are bounded by the caps on waiting
   * answers instead. A nested run is part of its caller's, and not counted again. A run that would
   * ask in place is first checked against the caps on waiting answers, so a session full of waiting
   * runs refuses the next one as waiting (`PendingAsksRefusal`: answer them first), not as busy.
   */
  private admitted(
    plan: WorkflowPlan,
    asks: boolean,
    args: WorkflowArguments,
    context: Context,
    call: WorkflowCall,
    observer: RequestObserver | undefined,
    rerun?: Rerun,
  ): Promise<unknown> {
    const session = this.line.request.sessionId(context);
    const refusal = this.askRefusal(asks, session);
    if (refusal) return Promise.reject(refusal);
    if (call.nested) return this.runWith(plan, asks, args, context, call, observer);
    return this.holding(this.admission.enter(session, this.line.request.signal(context)), (slot) => {
      // Answers awaited may have filled up while the run waited for its place: still refused before any step.
      const late = this.askRefusal(asks, session);
      return late ? Promise.reject(late) : this.runWith(plan, asks, args, context, call, observer, slot, rerun);
    });
  }

  /** The refusal of a run that would ask in place (a 2025 session) while its session or the process waits for all the answers it may. */
  private askRefusal(asks: boolean, session: string | undefined): Error | undefined {
    return asks && this.line.rounds?.servesRounds(this.server) !== true ? this.pendingAsks.refusal(session) : undefined;
  }

  /** `running` once `place` is admitted, its place released when it ends (or throws before it runs). */
  private holding<T>(place: RunSlot | Promise<RunSlot>, running: (slot: RunSlot) => Promise<T>): Promise<T> {
    const start = (slot: RunSlot): Promise<T> => {
      let run: Promise<T>;
      try {
        run = running(slot);
      } catch (error) {
        slot.end();
        throw error;
      }
      return run.finally(() => slot.end());
    };
    return place instanceof RunSlot ? start(place) : place.then(start);
  }

  private runWith(
    plan: WorkflowPlan,
    asks: boolean,
    args: WorkflowArguments,
    context: Context,
    call: WorkflowCall,
    observer: RequestObserver | undefined,
    slot?: RunSlot,
    rerun?: Rerun,
  ): Promise<unknown> {
    const { line, server } = this;
    const servesRounds = line.rounds?.servesRounds(server) === true;
    // Dev mode records each run a client started (a nested run is part of its caller's).
    const records = call.nested ? undefined : this.records;
    if (servesRounds && !call.nested && !rerun) {
      const rounds = line.rounds!;
      const requestState = rounds.requestState(context);
      if (asks || requestState !== undefined) {
        const host = new AdapterHost(line, this.registry, context, rounds.channel(server, context), true, observer);
        const recorded = records ? recordRun(records, host, plan, args, call, undefined) : call;
        const finishing = recorded.finish && finishingOptions(this.execution, recorded.finish);
        const pausing = { sealer: stateSealer(this.pause), replayGuard: this.replayGuard, client: line.request.client(context) };
        const binding = { prompt: call.name, face: call.face };
        const options = finishing?.options ?? this.execution;
        return runRound(line, rounds, plan, args, host, options, pausing, requestState, binding, finishing?.finish);
      }
    }
    // A nested run on a server of rounds cannot ask in place (the protocol has no server requests).
    let asking: InPlaceAskChannel | undefined;
    if (asks && !servesRounds) {
      const session = line.request.sessionId(context);
      const channel = line.askInPlace(server, context, this.askLimits.askTimeoutMs);
      // A top-level run gives its place under the run caps up while it waits (a nested run holds none of its own).
      asking = this.pendingAsks.bound(slot ? slot.releasing(channel) : channel, session);
    }
    // A nested run redacts the outer run's secrets too: they came in with the tool's context.
    const inherited = call.nested ? carriedSecrets(line.request.meta(context)) : undefined;
    const host = new AdapterHost(line, this.registry, context, asking, !call.nested, observer, inherited);
    const recorded = records ? recordRun(records, host, plan, args, call, rerun?.origin) : call;
    const finishing = recorded.finish && finishingOptions(this.execution, recorded.finish);
    const options = finishing?.options ?? this.execution;
    const result = rerun?.boundary ? rerunExecution(plan, rerun.boundary, host, options) : executeWorkflow(plan, args, host, options);
    return finishing ? result.then(finishing.finish) : result;
  }
}

/** What a rerun starts from (dev mode, `mcpflow/rerun`). */
export interface Rerun {
  /** The id of the recorded run it reruns. */
  readonly origin: string;
  /** That run's span context, which the rerun's span links to. */
  readonly originTrace?: CarriedTraceContext;
  /** That run's state before the step it reruns from; absent: it reruns from the start. */
  readonly boundary?: RunState;
}

/**
 * A task round whose work another round may take over (a shared store): where the last round got to
 * (a sealed checkpoint, if it completed a step), and where each completed step's checkpoint goes.
 */
export interface DurableRound {
  /** The task's checkpoints so far, oldest first: a whole run state, then each later step's delta. */
  readonly checkpoints?: readonly string[];
  /**
   * Adds a completed step's checkpoint (its delta), proving the round still holds its task; when it
   * does not, the round's signal aborts. `next`: the status (statusMessage and step) of the step the
   * run starts next. `final`: the run passed its last step — no step starts after it, and the round's
   * end, written next with its own proof, takes its place (a round may keep it unwritten).
   */
  save(checkpoint: string, next?: StepStatus, final?: boolean): Promise<void>;
  /** Before each step: proves the round still holds its task (at once when it just did), else aborts the round's signal. */
  beforeStep(): void | PromiseLike<void>;
}

/** What one round of a workflow run as a task came to: the tool's result, or the questions and the sealed state to resume from. */
export type TaskRoundOutcome =
  | { readonly kind: 'result'; readonly result: unknown }
  | { readonly kind: 'input-required'; readonly inputRequests: Readonly<Record<string, AskRequest>>; readonly state: string };

/** Tells `status` what a round does now, when there is something to tell. */
async function tellStatus(now: StepStatus | undefined, status: (status: StepStatus) => Promise<void>): Promise<void> {
  if (now) await status(now);
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

/**
 * Options that also keep the run's end event (the hook `onRunEnd` gets: status and outputs,
 * redacted by every secret of the run), and the finish that hands it to the face with the result.
 */
function finishingOptions(
  execution: ExecutionOptions,
  finish: (result: PromptResult, end: RunEndEvent) => unknown,
): { options: ExecutionOptions; finish: (result: PromptResult) => unknown } {
  let ended: RunEndEvent | undefined;
  const options: ExecutionOptions = {
    ...execution,
    onRunEnd: (event) => {
      ended = event;
      return execution.onRunEnd?.(event);
    },
  };
  return {
    options,
    finish: (result) => {
      if (!ended) throw new Error('a workflow run ended without reporting its end');
      return finish(result, ended);
    },
  };
}
