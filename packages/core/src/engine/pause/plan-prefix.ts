import { createHash } from 'node:crypto';
import type { ExecutionState } from '../execution/execution-state';
import type { WorkflowPlan } from '../plan/plan-workflow';

/**
 * What a sealed state records of the steps it passed and the steps it waits at (DESIGN §2.16): how
 * many (`length`), a digest of their shapes (`stepShape`), and the name of the last (named when a
 * state is refused). A resume goes on in any version whose first `length` steps have those shapes.
 */
export interface SealedPrefix {
  readonly length: number;
  readonly digest: string;
  readonly at: string;
}

const digests = new WeakMap<WorkflowPlan, Map<number, string>>();

/** A short digest of the workflow's name and the shapes of its first `length` steps (cached per plan). */
function prefixDigest(plan: WorkflowPlan, length: number): string {
  let byLength = digests.get(plan);
  if (byLength === undefined) digests.set(plan, (byLength = new Map()));
  let digest = byLength.get(length);
  if (digest === undefined) {
    digest = createHash('sha256')
      .update(JSON.stringify([plan.model.name, plan.shapes.slice(0, length)]))
      .digest('base64url')
      .slice(0, 16);
    byLength.set(length, digest);
  }
  return digest;
}

/**
 * How many of the plan's steps a state depends on: those before its position, and the whole group
 * (a parallel group, or one step) it waits at — the step whose questions it asked or the next to
 * run. Steps after that group are free to change.
 */
function passedLength(plan: WorkflowPlan, state: Pick<ExecutionState, 'position' | 'pause'>): number {
  const waited = Math.max(state.position, state.pause?.step ?? 0);
  const group = plan.groups.find((steps) => steps.some((step) => step.index === waited));
  return group === undefined ? Math.min(state.position, plan.steps.length) : group[group.length - 1]!.index + 1;
}

/** What a state sealed now records of the plan (see `SealedPrefix`). */
export function sealedPrefix(plan: WorkflowPlan, state: Pick<ExecutionState, 'position' | 'pause'>): SealedPrefix {
  const length = passedLength(plan, state);
  return { length, digest: prefixDigest(plan, length), at: plan.steps[Math.max(0, length - 1)]?.model.name ?? '' };
}

/** Whether the running plan can go on from a state that recorded `prefix`: its first steps have the same shapes. */
export function prefixMatches(plan: WorkflowPlan, prefix: SealedPrefix): boolean {
  return Number.isInteger(prefix.length) && prefix.length <= plan.steps.length && prefixDigest(plan, prefix.length) === prefix.digest;
}

const fingerprints = new WeakMap<WorkflowPlan, string>();

/**
 * The digest of the whole plan that states sealed by mcpflow before versions (format 2) carry: such
 * a state opens when the running plan is the one that sealed it, so an upgrade of mcpflow itself
 * loses no paused run.
 */
export function legacyPlanFingerprint(plan: WorkflowPlan): string {
  let fingerprint = fingerprints.get(plan);
  if (fingerprint === undefined) {
    const shape = plan.steps.map((step) => [
      step.model.name,
      step.action.kind,
      step.model.binding ?? null,
      step.asks.map((ask) => ask.key),
    ]);
    fingerprint = createHash('sha256')
      .update(JSON.stringify([plan.model.name, shape]))
      .digest('base64url')
      .slice(0, 16);
    fingerprints.set(plan, fingerprint);
  }
  return fingerprint;
}
