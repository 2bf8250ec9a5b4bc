import { resumesPrefix, shapePrefixDigest, workflowShapes, type LockedShapes, type LockedWorkflow, type WorkflowModel } from '../model';
import { LockedShapeChangedError } from './errors/rule-errors';
import type { WorkflowDefinitionError } from './errors/workflow-definition-error';

/**
 * The lock check (DESIGN §2.16): each prefix a run of a locked version can wait at (`sealable`) — of
 * the latest class locked and of each class it kept in `previous`, whose runs can still be out there —
 * must be resumable — by `resumesPrefix`, the comparison the server makes on resume — by the workflow
 * or one of its `previous` classes. Else 91050, on the first step that differs from that locked
 * version. No lock entry (no lock file, a new workflow): nothing to check.
 *
 * @example
 * ```ts
 * checkLockedShapes(model, readLock(text).get(model.name)); // [LockedShapeChangedError] for a step inserted before an asking one
 * ```
 */
export function checkLockedShapes(workflow: WorkflowModel, locked: LockedWorkflow | undefined): WorkflowDefinitionError[] {
  if (locked === undefined) return [];
  const current = workflowShapes(workflow);
  const versions = [
    current,
    ...(workflow.previous ?? []).flatMap(({ model }) => (model?.name === workflow.name ? [workflowShapes(model)] : [])),
  ];
  for (const version of [locked, ...locked.previous])
    for (const length of version.sealable) {
      const prefix = { length, digest: shapePrefixDigest(workflow.name, version.steps, length) };
      if (versions.some((shapes) => resumesPrefix(workflow.name, shapes, prefix))) continue;
      return [changedStep(workflow, version, current)];
    }
  return [];
}

/** The error naming the first step of the class that differs from the locked version's. */
function changedStep(workflow: WorkflowModel, locked: LockedShapes, current: readonly string[]): LockedShapeChangedError {
  let index = 0;
  while (index < locked.steps.length && locked.steps[index] === current[index]) index += 1;
  const was = readShape(locked.steps[index]);
  const now = readShape(current[index]);
  const change =
    now === undefined
      ? `the locked step ${index + 1}, '${was?.name}' (${describe(was)}), is gone`
      : was === undefined
        ? `step '${now.name}' is past the locked steps`
        : now.name === was.name
          ? `the locked step ${index + 1}, '${was.name}', was ${describe(was)} and is now ${describe(now)}`
          : `step ${index + 1} was '${was.name}' (${describe(was)}) in the locked version and is now '${now.name}' (${describe(now)})`;
  return new LockedShapeChangedError(workflow.name, now?.name, change, locked.version);
}

interface ReadShape {
  readonly name: string;
  readonly kind: string | null;
  readonly target: string | null;
  readonly binding: string | null;
  readonly asks: readonly string[];
}

/** A shape's fields (`stepShape`: `[name, kind, tool or URI, binding, question keys]`). */
function readShape(shape: string | undefined): ReadShape | undefined {
  if (shape === undefined) return undefined;
  const [name, kind, target, binding, asks] = JSON.parse(shape) as [string, string | null, string | null, string | null, string[]];
  return { name, kind, target, binding, asks: Array.isArray(asks) ? asks : [] };
}

function describe(shape: ReadShape | undefined): string {
  if (shape === undefined) return 'nothing';
  const parts = [shape.kind === null ? 'no action' : `${shape.kind}${shape.target === null ? '' : ` '${shape.target}'`}`];
  parts.push(shape.binding === null ? 'no binding' : `binding '${shape.binding}'`);
  if (shape.asks.length) parts.push(`asking ${shape.asks.map((key) => `'${key}'`).join(', ')}`);
  return parts.join(', ');
}
