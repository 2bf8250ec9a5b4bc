import { SealedStateError, type RoundsAskChannel, type SealedStateProblem } from '../../engine';
import type { AdapterLine } from '../adapter-line';
import type { PauseOptions } from '../pause/pause-options';
import { taskSealer } from '../run/state-sealers';
import type { StepStatus } from '../run/running-step';
import type { DurableRound } from '../run/workflow-runner';
import { invokeTool } from '../tools/call-tool';
import type { TaskDispatch } from './task-dispatch';
import { isTerminalTaskStatus, type RoundChange, type TaskChange, type TaskRecord, type TaskStatus, type TaskStore } from './task-store';
import { messageOf, shortId, type PlainTaskTool, type RoundEnd, type TaskCall, type TaskTool, type WorkflowTaskTool } from './task-tools';
import type { TaskValues } from './task-values';
import type { TasksSupport } from './tasks-support';
import { TASK_ERROR_CODES, type TaskError } from './tasks-wire';

/** What the rounds of one server's tasks need of it. */
export interface RoundsServing<Server, Context> {
  readonly line: AdapterLine<Server, Context>;
  readonly support: TasksSupport<Server, Context>;
  readonly store: TaskStore;
  readonly dispatch: TaskDispatch;
  readonly tools: ReadonlyMap<string, TaskTool<Context>>;
  readonly options: { readonly pause?: PauseOptions; readonly maxTraceBytes: number };
  readonly log?: (line: string) => void;
  values(taskId: string): TaskValues;
}

/**
 * The rounds of one server's tasks (DESIGN §2.13): a workflow's through `WorkflowRunner.taskRound`
 * (from the start, from the state it paused with, or from the MRTR state that came before the task),
 * a plain tool's through its handler (the one the call started, or called again with the answers);
 * how a round ended is recorded in the store — parked with its questions, completed with the
 * result, or failed with a JSON-RPC error.
 *
 * @example
 * ```ts
 * await new TaskRounds(serving).run(record, signal, context);
 * ```
 */
export class TaskRounds<Server, Context> {
  constructor(private readonly serving: RoundsServing<Server, Context>) {}

  /**
   * Runs one round of `record` and records how it ended (unless the task was cancelled meanwhile):
   * whether it did (false: the task was cancelled, or moved on without this round).
   */
  async run(record: TaskRecord, signal: AbortSignal, base: Context | undefined): Promise<boolean> {
    const tool = this.serving.tools.get(record.tool)!;
    const values = this.serving.values(record.taskId);
    this.serving.log?.(`mcpflow task ${record.tool} round: ${shortId(record.taskId)}`);
    let end: RoundEnd;
    // The task as this round last changed it: each checkpoint moves its version on.
    const latest = { record };
    // A workflow's round on a store whose rounds can be taken over is fenced, its end too.
    const durable =
      tool.kind === 'workflow' && this.serving.store.checkpoints ? durableRound(this.serving.store, latest, signal) : undefined;
    let args: Readonly<Record<string, unknown>> = {};
    try {
      const call = values.open<TaskCall>(record.call);
      args = call.arguments;
      end =
        tool.kind === 'workflow'
          ? await this.workflowRound(tool, latest, call, values, signal, base, durable)
          : await this.plainRound(tool, record, call, values, signal, base);
    } catch (error) {
      end = { kind: 'failed', error: this.roundError(record.tool, tool, error) };
    }
    // A cancelled task stays cancelled: the store decided, and the round's end is dropped.
    if (signal.aborted) return false;
    return this.recordEnd(latest.record, end, values, args, durable);
  }

  /** The JSON-RPC error of a round that threw: a saved run it could not open is told in a task client's terms. */
  private roundError(name: string, tool: TaskTool<Context>, error: unknown): TaskError {
    if (error instanceof SealedStateError) {
      const workflow = tool.kind === 'workflow' ? tool.plan.model.name : name;
      return { code: TASK_ERROR_CODES.invalidParams, message: unopenedStateMessage(name, workflow, error) };
    }
    return { code: this.serving.support.errorCode(error) ?? TASK_ERROR_CODES.internalError, message: messageOf(error) };
  }

  private async workflowRound(
    tool: WorkflowTaskTool<Context>,
    latest: { record: TaskRecord },
    call: TaskCall,
    values: TaskValues,
    signal: AbortSignal,
    base: Context | undefined,
    durable: FencedRound | undefined,
  ): Promise<RoundEnd> {
    const { record } = latest;
    const answers = values.openOptional<Record<string, unknown>>(record.answers) ?? call.responses;
    const capabilities = call.capabilities;
    const asking: RoundsAskChannel = {
      mode: 'rounds',
      supports: (capability) => capabilities?.[capability] !== undefined,
      responses: answers as RoundsAskChannel['responses'],
    };
    const context = this.serving.support.roundContext(base, signal);
    const sealer = taskSealer(this.serving.options.pause, this.serving.store.ttlMs);
    // The step that runs, value-free, as the task's statusMessage and _meta: a durable round's is fenced (and written
    // with the checkpoint before it where it can); else best effort: a lost race with an answer keeps the last one.
    const status =
      durable?.status ??
      (async ({ message, step }: StepStatus) => {
        const change = { statusMessage: message, step: JSON.stringify(step) };
        const changed = await this.serving.store.update(record.taskId, latest.record.version, change).catch(() => undefined);
        if (changed?.ok) latest.record = { ...latest.record, ...changed.task };
      });
    const outcome = await tool.round(call.arguments, context, asking, record.state ?? call.requestState, sealer, durable, status);
    return outcome.kind === 'result' ? outcome : { kind: 'input-required', inputRequests: outcome.inputRequests, state: outcome.state };
  }

  private async plainRound(
    tool: PlainTaskTool,
    record: TaskRecord,
    call: TaskCall,
    values: TaskValues,
    signal: AbortSignal,
    base: Context | undefined,
  ): Promise<RoundEnd> {
    let value: unknown;
    try {
      const adopted = this.serving.dispatch.adopted(record.taskId, signal);
      if (adopted) {
        value = await adopted;
      } else {
        const answers = values.openOptional<Record<string, unknown>>(record.answers);
        const state = values.openOptional<{ requestState?: string }>(record.state);
        const input = answers && { responses: answers, ...(state?.requestState === undefined ? {} : { requestState: state.requestState }) };
        value = await invokeTool(tool.handle, record.tool, call.arguments, this.serving.support.roundContext(base, signal, input));
      }
    } catch (error) {
      if (this.serving.support.errorCode(error) !== undefined) throw error;
      return { kind: 'result', result: { content: [{ type: 'text', text: messageOf(error) }], isError: true } };
    }
    if (this.serving.line.asksForInput?.(value)) {
      const { inputRequests, requestState } = value as { inputRequests: Record<string, unknown>; requestState?: string };
      return { kind: 'input-required', inputRequests, state: values.seal(requestState === undefined ? {} : { requestState }) };
    }
    return { kind: 'result', result: value };
  }

  /** Records how the round ended — fenced, in a durable round — and tells whether it did. */
  private async recordEnd(
    record: TaskRecord,
    given: RoundEnd,
    values: TaskValues,
    args: Readonly<Record<string, unknown>>,
    durable: FencedRound | undefined,
  ): Promise<boolean> {
    // A workflow's tool face holds its trace and outputs to maxTraceBytes itself; a plain tool's result is checked here.
    const plain = this.serving.tools.get(record.tool)?.kind === 'plain';
    const end = given.kind === 'result' && plain ? this.keptResult(record.tool, given.result) : given;
    const done = { state: null, checkpoints: null, inputRequests: null, answers: null } as const;
    const change: TaskChange & { status: TaskStatus } =
      end.kind === 'input-required'
        ? { status: 'input_required', state: end.state, checkpoints: null, inputRequests: values.seal(end.inputRequests), answers: null }
        : end.kind === 'result'
          ? { status: 'completed', result: values.sealEnd({ result: end.result }, args), ...done }
          : { status: 'failed', result: values.sealEnd({ error: end.error }, args), ...done };
    const recorded = durable ? await durable.end(change) : (await this.serving.store.update(record.taskId, record.version, change)).ok;
    if (!recorded) return false;
    if (isTerminalTaskStatus(change.status)) this.serving.dispatch.forget(record.taskId);
    this.serving.log?.(`mcpflow task ${record.tool} ${change.status}: ${shortId(record.taskId)}`);
    return true;
  }

  /** A plain tool's result as the task keeps it: within `maxTraceBytes`, else a failure that names the option. */
  private keptResult(tool: string, result: unknown): RoundEnd {
    const bytes = jsonBytes(result);
    const limit = this.serving.options.maxTraceBytes;
    if (bytes <= limit) return { kind: 'result', result };
    const message = `the result of tool ${tool} is ${bytes} bytes, over this server's maxTraceBytes (${limit}); it was not kept`;
    return { kind: 'failed', error: { code: TASK_ERROR_CODES.internalError, message } };
  }
}

/**
 * How long a round's last proof counts as fresh at a step boundary: a step that starts within this
 * of the last checkpoint's proof starts without asking the store again; after a longer stall (a GC
 * pause, SIGSTOP) between the two, the round proves again before the step starts.
 */
const FRESH_PROOF_MS = 1000;

/** Why a round failed when its checkpoint would not fit its task's bound. */
const TOO_LARGE_CHECKPOINT =
  "the run's checkpoint would take its task over the task store's maxTaskBytes; raise maxTaskBytes, or keep what steps bind smaller";

/** A durable round as a task round drives it: its checkpoints and proofs, its status, and its end. */
type FencedRound = DurableRound & {
  status(now: StepStatus): Promise<void>;
  /** Writes the round's end with a last proof that it holds the task: whether it did. */
  end(change: TaskChange): Promise<boolean>;
};

/**
 * A fenced round on a store whose rounds can be taken over (DESIGN §2.13 "Fenced rounds"): it goes
 * on from the task's last checkpoint; before each step it proves that it still holds the task (at
 * once when its last proof is fresh), and each completed step's delta (what it added to the run's
 * state, sealed with the task's sealer) is added to the task's checkpoints with that proof. Once a proof fails — the round's lock
 * lapsed, another round took the task over, the task was cancelled, expired or moved on — the store
 * aborts the round's signal: the step in flight is aborted, no later step starts, and nothing is
 * saved or retried on the newer version. The round's end is written with a proof too, in place of
 * the last step's checkpoint (which the end would drop at once): a round that cannot record its end
 * — it crashed, or lost the task — leaves the task at the checkpoint before, so the last step is one
 * in flight for the round that takes over.
 */
function durableRound(store: TaskStore, latest: { record: TaskRecord }, signal: AbortSignal): FencedRound {
  /** When the last proof that held was sent; none yet in this round. */
  let provenAt: number | undefined;
  /** The task's statusMessage as this round last wrote it (or found it). */
  let statusMessage = latest.record.statusMessage;
  // One fence at a time, each from the version the one before left: a statusMessage told while a
  // checkpoint is on its way (iterations of a loop finishing together) waits for it, not fails on it.
  let queue: Promise<void> = Promise.resolve();
  const fence = (change?: RoundChange): Promise<boolean> => {
    const run = queue.then(() => fenceNow(change));
    queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  };
  const fenceNow = async (change?: RoundChange): Promise<boolean> => {
    if (signal.aborted) return false;
    const sentAt = Date.now();
    const fenced = await store.fence(latest.record.taskId, latest.record.version, signal, change);
    if (!fenced.held && fenced.why === 'too-large') throw new Error(TOO_LARGE_CHECKPOINT);
    if (!fenced.held) return false;
    latest.record = { ...latest.record, version: fenced.version };
    if (change?.statusMessage !== undefined) statusMessage = change.statusMessage;
    provenAt = sentAt;
    return true;
  };
  /** A status as the task keeps it (its statusMessage and step), when it is not the one the task has. */
  const told = (now: StepStatus | undefined): RoundChange =>
    now === undefined || now.message === statusMessage ? {} : { statusMessage: now.message, step: JSON.stringify(now.step) };
  return {
    checkpoints: latest.record.checkpoints,
    // The last step's checkpoint is not written: the round's end, fenced, comes next in its place.
    save: async (checkpoint, next, final) => {
      if (!final) await fence({ checkpoint, ...told(next) });
    },
    // The step's progress tells what its checkpoint before already wrote: written only when it is new.
    status: async (now) => {
      if (now.message !== statusMessage) await fence(told(now));
    },
    beforeStep: () => (provenAt !== undefined && Date.now() - provenAt < FRESH_PROOF_MS ? undefined : fence().then(() => undefined)),
    end: (change) => fence({ end: change }),
  };
}

/** Why a task's saved run (its paused state, its checkpoint, or the MRTR state it started from) did not open, by problem. */
const UNOPENED: Record<SealedStateProblem, (workflow: string, error: SealedStateError) => string> = {
  stale: (workflow, { waitedAt }) =>
    waitedAt === undefined
      ? `was saved by another version of workflow '${workflow}' or of mcpflow (the server was updated while the task ran)`
      : `was saved by another version of workflow '${workflow}', waiting at step '${waitedAt}', and the steps up to there have changed since ` +
        '(the server was updated while the task ran; keep the old class in @Workflow({ previous: [...] }) to resume such tasks)',
  expired: () => 'expired',
  'not-authentic': () => 'was altered, or sealed with a key this server does not hold (every instance needs the same pause.keys)',
  replayed: () => 'started from a requestState that was used already (tools/call sent twice with the same one)',
  malformed: () => 'could not be read',
  'too-large': () => 'is too large to open',
};

/**
 * The message of a task whose round could not open its saved run: what happened, and what a task
 * client does about it — call the tool again for a new task. (The engine's own message tells an
 * MRTR client to retry without requestState, which a task client never sent.)
 */
function unopenedStateMessage(tool: string, workflow: string, error: SealedStateError): string {
  return `task of tool ${tool} cannot go on: its saved run ${UNOPENED[error.problem](workflow, error)}. Call tool ${tool} again for a new task; this one has ended.`;
}

/** The size of a value as JSON, in bytes. */
function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '');
}
