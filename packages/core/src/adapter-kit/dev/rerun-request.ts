import { boundText, type WorkflowPlan } from '../../engine';
import { didYouMean } from '../../rules';
import type { Rerun } from '../run/workflow-runner';
import type { RunRecord, RunRecords } from './run-records';

/** The JSON-RPC method a dev server answers to run a recorded run again (DESIGN §2.15). */
export const RERUN_METHOD = 'mcpflow/rerun';

/** The params of `mcpflow/rerun`. */
export interface RerunParams {
  /** The run to rerun: `_meta["mcpflow/run"].id` of its result. */
  readonly runId: string;
  /** Rerun from this step: the earlier steps' outputs are the recorded ones, this step and the later ones run again. */
  readonly fromStep?: string;
  /** Rerun from the start with these arguments instead of the recorded ones (not with `fromStep`). */
  readonly arguments?: Readonly<Record<string, unknown>>;
}

/** A checked `mcpflow/rerun`: the record, the rerun's start, and the raw arguments to parse as the face does (absent: the recorded ones). */
export interface RerunRequest {
  readonly record: RunRecord;
  readonly rerun: Rerun;
  readonly arguments?: unknown;
}

/**
 * Reads `mcpflow/rerun`'s params against the recorded runs: which run, from which step (the state
 * recorded before it: a step of a parallel group reruns the whole group), with which arguments.
 * Anything wrong is `invalid(message)` — the line's `-32602` — naming what was wrong and the fix:
 * params that are not an object, a run id that is not recorded (never was, or evicted), a step the
 * workflow does not have, a step the run never reached, or new arguments with `fromStep` (the
 * earlier steps' outputs came from the recorded arguments).
 *
 * @example
 * ```ts
 * const { record, rerun } = rerunRequest(records, { runId, fromStep: 'build' }, line.invalidParams);
 * ```
 */
export function rerunRequest(records: RunRecords, params: unknown, invalid: (message: string) => Error): RerunRequest {
  const given = (typeof params === 'object' && params !== null ? params : {}) as Partial<Record<keyof RerunParams, unknown>>;
  const { runId, fromStep } = given;
  if (typeof runId !== 'string')
    throw invalid(
      `${RERUN_METHOD} needs 'runId', the id of a run this server ran (a string: _meta["mcpflow/run"].id of the run's result).`,
    );
  const record = records.get(runId);
  if (!record)
    throw invalid(
      `${RERUN_METHOD}: no run '${boundText(runId, 100)}' is recorded in this server process. It keeps the last ${records.maxRuns} runs ` +
        `(at most ${records.maxBytes} bytes): the run was evicted, ran in another process, or the id is wrong. Run the workflow again instead.`,
    );
  const origin = { origin: record.id, originTrace: record.traceContext };
  if (fromStep !== undefined && typeof fromStep !== 'string')
    throw invalid(`${RERUN_METHOD}: 'fromStep' must be a step's name (a string), or left out to rerun from the start.`);
  if (fromStep === undefined) return { record, rerun: origin, ...(given.arguments !== undefined && { arguments: given.arguments }) };
  if (given.arguments !== undefined)
    throw invalid(
      `${RERUN_METHOD}: 'arguments' cannot change when rerunning from step '${boundText(fromStep, 100)}': the earlier steps' outputs came from the recorded arguments. ` +
        `Leave 'arguments' out, or rerun from the start (no fromStep) with the new arguments.`,
    );
  return { record, rerun: { ...origin, boundary: boundaryBefore(record, fromStep, invalid) } };
}

/** The recorded state before `fromStep`'s group; none for a step of the first group (a rerun from there is a rerun from the start). */
function boundaryBefore(record: RunRecord, fromStep: string, invalid: (message: string) => Error): Rerun['boundary'] {
  const { plan } = record;
  const step = plan.steps.find((each) => each.model.name === fromStep);
  if (!step) {
    const names = plan.steps.map((each) => each.model.name);
    throw invalid(
      `${RERUN_METHOD}: workflow '${plan.model.name}' has no step '${boundText(fromStep, 100)}'.${didYouMean(fromStep, names)} Its steps: ${names.join(', ')}.`,
    );
  }
  const position = groupStart(plan, step.index);
  if (position === 0) return undefined;
  const boundary = record.boundaries.get(position);
  if (boundary) return boundary;
  const reached = Math.max(0, ...record.boundaries.keys());
  const why = record.incomplete
    ? `this server could not keep its state past step '${plan.steps[reached].model.name}': ${record.incomplete}`
    : `it stopped before it`;
  throw invalid(
    `${RERUN_METHOD}: run '${record.id}' never completed the steps before '${fromStep}' (${why}). ` +
      `Rerun from '${plan.steps[reached].model.name}' or an earlier step, or from the start.`,
  );
}

/** The index of the first step of the (parallel) group `index` is in: a run's states are recorded between groups. */
function groupStart(plan: WorkflowPlan, index: number): number {
  const group = plan.groups.find((steps) => steps.some((step) => step.index === index));
  return group ? group[0].index : index;
}
