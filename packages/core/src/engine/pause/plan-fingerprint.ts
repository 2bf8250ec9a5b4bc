import { createHash } from 'node:crypto';
import type { WorkflowPlan } from '../plan/plan-workflow';

const fingerprints = new WeakMap<WorkflowPlan, string>();

/**
 * A short digest of what a sealed state's positions and keys refer to: each step's name, kind,
 * binding and questions. A state sealed by another version of the workflow (a deployment rolled
 * out between two rounds) does not resume at the wrong step.
 */
export function planFingerprint(plan: WorkflowPlan): string {
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
