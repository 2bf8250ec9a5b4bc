import { randomUUID } from 'node:crypto';
import { copyRunState, type CarriedTraceContext, type RunState, type WorkflowPlan } from '../../engine';

/** How many runs a dev process keeps at most (the oldest go first). */
const MAX_RECORDED_RUNS = 100;
/** How many bytes (as JSON) the kept runs' states take at most in a dev process (the oldest runs go first). */
const MAX_RECORDED_BYTES = 64 * 1024 * 1024;

/**
 * One run a dev server ran, as it recorded it: what was called (face and name), with which
 * arguments, the run's state at each step boundary it passed (so it can run again from any step
 * it reached, with the earlier steps' outputs as they were), and its run span's context.
 */
export interface RunRecord {
  /** The id a client reruns it by: `_meta["mcpflow/run"].id` of its result (never the run's own id, which tools see). */
  readonly id: string;
  readonly face: 'prompt' | 'tool';
  /** The prompt's or the tool's name, as the client called it. */
  readonly name: string;
  readonly plan: WorkflowPlan;
  readonly args: Readonly<Record<string, string | undefined>>;
  /** The record this run reruns, when it is a rerun. */
  readonly from?: string;
  /** The run's state as each step (or parallel group) before `position` had completed, by `position`. */
  readonly boundaries: Map<number, RunState>;
  /** The run span's context, for a rerun's span link. */
  traceContext?: CarriedTraceContext;
  /** What its boundaries take, as JSON. */
  bytes: number;
  /** Set once a boundary could not be kept (a value that cannot be copied, or too big): none after it is either. */
  incomplete?: string;
}

/**
 * The runs a dev process recorded (DESIGN §2.15 "History and rerun"), bounded in count and bytes:
 * the oldest go first. One per process, made on first use by a server in dev mode (`devRunRecords`):
 * a server per session (`serveHttp`) reruns what another session's server ran. Nothing is kept
 * outside dev mode.
 *
 * @example
 * ```ts
 * const record = records.start({ face: 'prompt', name: 'build', plan, args });
 * records.keep(record, state); // from the host's checkpoint hook
 * records.get(record.id)?.boundaries.get(2);
 * ```
 */
export class RunRecords {
  private readonly records = new Map<string, RunRecord>();
  /** Records by the run's own id: the rounds of a run that pauses are one record. */
  private readonly byRun = new Map<string, RunRecord>();
  private bytes = 0;

  constructor(
    readonly maxRuns = MAX_RECORDED_RUNS,
    readonly maxBytes = MAX_RECORDED_BYTES,
  ) {}

  /** A new record, the newest; the oldest is evicted past `maxRuns`. */
  start(run: Pick<RunRecord, 'face' | 'name' | 'plan' | 'args' | 'from'>): RunRecord {
    const record: RunRecord = { ...run, id: randomUUID(), boundaries: new Map(), bytes: 0 };
    this.records.set(record.id, record);
    while (this.records.size > this.maxRuns) this.evictOldest();
    return record;
  }

  /** The record of the run whose own id is `runId` (a later round of a paused run), else `started()` recorded under it. */
  ofRun(runId: string, started: () => RunRecord): RunRecord {
    const known = this.byRun.get(runId);
    if (known && this.records.has(known.id)) return known;
    const record = started();
    this.byRun.set(runId, record);
    return record;
  }

  /** The record a client names, if it is still kept. */
  get(id: string): RunRecord | undefined {
    return this.records.get(id);
  }

  /**
   * Keeps a copy of the run's state at a step boundary. A state that cannot be copied, or that
   * alone is over `maxBytes`, is not kept (nor any later one: the record says why); older runs are
   * evicted until the kept bytes fit.
   */
  keep(record: RunRecord, state: RunState): void {
    if (record.incomplete || record.boundaries.has(state.position) || !this.records.has(record.id)) return;
    let copy: RunState;
    let bytes: number;
    try {
      copy = copyRunState(state);
      bytes = Buffer.byteLength(JSON.stringify(copy));
    } catch (error) {
      record.incomplete = `a step's output could not be copied (${(error as Error).name})`;
      return;
    }
    if (record.bytes + bytes > this.maxBytes) {
      record.incomplete = `its states took more than ${this.maxBytes} bytes`;
      return;
    }
    record.boundaries.set(state.position, copy);
    record.bytes += bytes;
    this.bytes += bytes;
    while (this.bytes > this.maxBytes) this.evictOldest();
  }

  private evictOldest(): void {
    const [oldest] = this.records.values();
    this.records.delete(oldest.id);
    this.bytes -= oldest.bytes;
    for (const [runId, record] of this.byRun) if (record === oldest) this.byRun.delete(runId);
  }
}

let processRecords: RunRecords | undefined;

/** The process's records, made on first use (by a server in dev mode only). */
export function devRunRecords(): RunRecords {
  processRecords ??= new RunRecords();
  return processRecords;
}
