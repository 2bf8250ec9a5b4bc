import { createHash } from 'node:crypto';
import { workflowFaces } from './expose';
import { parallelGroups } from './parallel-groups';
import { stepAskKeys } from './step-shape';
import type { StepModel, WorkflowModel } from './workflow-model';

/**
 * What a sealed state records of the steps it depends on (DESIGN §2.16): how many (`length`) and a
 * digest of the workflow's name and those steps' shapes (`stepShape`). Any version of the workflow
 * whose first `length` steps have those shapes can go on from it (`resumesPrefix`).
 */
export interface ShapePrefix {
  readonly length: number;
  readonly digest: string;
}

/** Digests already computed, per array of shapes (a plan's, a lock's) and workflow name and length. */
const digests = new WeakMap<readonly string[], Map<string, string>>();

/**
 * A short digest of a workflow's name and the first `length` of its step shapes (`workflowShapes`),
 * cached per `shapes` array: what a state sealed after those steps records.
 *
 * @example
 * ```ts
 * const prefix = { length: 2, digest: shapePrefixDigest('nightly_build', workflowShapes(model), 2) };
 * ```
 */
export function shapePrefixDigest(workflow: string, shapes: readonly string[], length: number): string {
  let known = digests.get(shapes);
  if (known === undefined) digests.set(shapes, (known = new Map()));
  const key = `${length}\u0000${workflow}`;
  let digest = known.get(key);
  if (digest === undefined) {
    digest = createHash('sha256')
      .update(JSON.stringify([workflow, shapes.slice(0, length)]))
      .digest('base64url')
      .slice(0, 16);
    known.set(key, digest);
  }
  return digest;
}

/**
 * Whether a version of workflow `workflow` whose steps have `shapes` can go on from a state that
 * recorded `prefix`: its first `prefix.length` steps have the shapes the state passed. The one
 * comparison that decides it — on resume (against the class and each `previous` class) and in the
 * lock check (`mcpflow.lock.json`) — so the server and the compiler never disagree.
 */
export function resumesPrefix(workflow: string, shapes: readonly string[], prefix: ShapePrefix): boolean {
  return (
    Number.isInteger(prefix.length) &&
    prefix.length >= 0 &&
    prefix.length <= shapes.length &&
    shapePrefixDigest(workflow, shapes, prefix.length) === prefix.digest
  );
}

/**
 * How many steps a state depends on when it is at `position` (the next step to run) and, paused,
 * waits at step `waited`: those before, and the whole group (a parallel group, or one step) it waits
 * at. Steps after that group are free to change.
 */
export function dependedLength(steps: readonly Pick<StepModel, 'parallel'>[], position: number, waited = position): number {
  const at = Math.max(position, waited);
  let start = 0;
  for (const group of parallelGroups(steps)) {
    const end = start + group.length;
    if (at < end) return end;
    start = end;
  }
  return Math.min(position, steps.length);
}

/**
 * Every `length` a state sealed by this version of a workflow can record (`dependedLength`): a run
 * pauses only before a step that asks (its group's end), while a task (`expose.tool.task`) checkpoints
 * before each step or group. The lock check asks that each of these prefixes stays resumable.
 *
 * @example
 * ```ts
 * sealableLengths(model); // [2, 4]: a run can wait at the asking steps 2 and 4
 * ```
 */
export function sealableLengths(model: Pick<WorkflowModel, 'name' | 'steps' | 'expose'>): number[] {
  const task = workflowFaces(model).tool?.task !== undefined;
  const lengths: number[] = [];
  let start = 0;
  for (const group of parallelGroups(model.steps)) {
    start += group.length;
    if (task || group.some((step) => stepAskKeys(step).length > 0)) lengths.push(start);
  }
  return lengths;
}
