import { createHash } from 'node:crypto';
import { dependedLength, resumesPrefix, shapePrefixDigest, type ShapePrefix } from '../../model';
import type { ExecutionState } from '../execution/execution-state';
import type { WorkflowPlan } from '../plan/plan-workflow';

/**
 * What a sealed state records of the steps it passed and the steps it waits at (DESIGN §2.16): how
 * many (`length`), a digest of their shapes (`shapePrefixDigest`), and the name of the last (named
 * when a state is refused). A resume goes on in any version whose first `length` steps have those
 * shapes (`resumesPrefix`, which the lock check uses too).
 */
export interface SealedPrefix extends ShapePrefix {
  readonly at: string;
}

/** What a state sealed now records of the plan (see `SealedPrefix`, `dependedLength`). */
export function sealedPrefix(plan: WorkflowPlan, state: Pick<ExecutionState, 'position' | 'pause'>): SealedPrefix {
  const length = dependedLength(plan.model.steps, state.position, state.pause?.step);
  return {
    length,
    digest: shapePrefixDigest(plan.model.name, plan.shapes, length),
    at: plan.steps[Math.max(0, length - 1)]?.model.name ?? '',
  };
}

/** Whether the running plan can go on from a state that recorded `prefix` (`resumesPrefix`). */
export function prefixMatches(plan: WorkflowPlan, prefix: SealedPrefix): boolean {
  return resumesPrefix(plan.model.name, plan.shapes, prefix);
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
