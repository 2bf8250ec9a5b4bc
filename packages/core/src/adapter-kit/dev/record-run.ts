import type { Host, PromptResult, RunEndEvent, RunObserver, RunState, WorkflowPlan } from '../../engine';
import { RUN_META_KEY } from '../run/run-meta';
import type { RunRecord, RunRecords } from './run-records';

/** What a run is called through, as `WorkflowRunner`'s `WorkflowCall` says it: the face, its name, and how its result is made. */
interface RecordedCall {
  readonly face: 'prompt' | 'tool';
  readonly name: string;
  readonly finish?: (result: PromptResult, end: RunEndEvent) => unknown;
}

/** What a dev server's result says of its run in `_meta["mcpflow/run"]`: the id to rerun it by, and the run it reruns. */
export interface RecordedRunMeta {
  readonly id: string;
  /** The id of the run this one reruns (`mcpflow/rerun`). */
  readonly from?: string;
}

/**
 * Records one run of a dev server (DESIGN §2.15): the host's `checkpoint` hook keeps a copy of the
 * run's state at each step boundary (the rounds of a paused run are one record, by the run's id),
 * and the returned call's `finish` puts the record's id — and, for a rerun, its origin's — in the
 * result's `_meta["mcpflow/run"]`. The run span's context is kept for a rerun's span link.
 *
 * @example
 * ```ts
 * const recorded = recordRun(records, host, plan, args, call, undefined);
 * const finishing = finishingOptions(options, recorded.finish!);
 * ```
 */
export function recordRun<Call extends RecordedCall>(
  records: RunRecords,
  host: Host,
  plan: WorkflowPlan,
  args: Readonly<Record<string, string | undefined>>,
  call: Call,
  from: string | undefined,
): Call {
  let record: RunRecord | undefined;
  const started = () => records.start({ face: call.face, name: call.name, plan, args, ...(from !== undefined && { from }) });
  const observed = (observer: RunObserver | undefined) => {
    record!.traceContext ??= observer?.traceContext();
  };
  host.checkpoint = (state: RunState) => {
    record ??= records.ofRun(state.runId, started);
    observed(host.observer);
    records.keep(record, state);
  };
  const finish = (result: PromptResult, end: RunEndEvent): unknown => {
    record ??= started();
    observed(host.observer);
    const finished = (call.finish ? call.finish(result, end) : result) as { _meta?: Record<string, unknown> };
    const meta: RecordedRunMeta = record.from === undefined ? { id: record.id } : { id: record.id, from: record.from };
    // The engine's own `_meta["mcpflow/run"]` (the version the run went on in) stays beside the record's id.
    const run = finished._meta?.[RUN_META_KEY] as object | undefined;
    return { ...finished, _meta: { ...finished._meta, [RUN_META_KEY]: { ...run, ...meta } } };
  };
  return { ...call, finish };
}
