import type { WorkflowLock } from '../model';
import { LockedWorkflowGoneError } from './errors/rule-errors';

/**
 * The lock check of a whole project (DESIGN §2.16): each workflow `mcpflow.lock.json` records for
 * `project` (the tsconfig.json its program was read from, as the lock names it) must still be
 * declared by that program — by a class of its name, the latest or one kept in `previous`. A
 * workflow deleted or renamed is 91050: its paused runs would be refused. A lock entry of another
 * project, or of a format-1 lock (which names no project), is not this program's to check.
 *
 * @example
 * ```ts
 * checkLockedWorkflows(readLock(text), 'tsconfig.json', new Set(['nightly_build']), 'mcpflow.lock.json'); // [LockedWorkflowGoneError] for each other locked workflow
 * ```
 */
export function checkLockedWorkflows(
  lock: WorkflowLock,
  project: string,
  declared: ReadonlySet<string>,
  file: string,
): LockedWorkflowGoneError[] {
  const gone: LockedWorkflowGoneError[] = [];
  for (const [name, locked] of lock)
    if (locked.project === project && !declared.has(name)) gone.push(new LockedWorkflowGoneError(name, file, project));
  return gone;
}
