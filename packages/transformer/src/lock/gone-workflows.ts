import * as path from 'node:path';
import type * as ts from 'typescript';
import { checkLockedWorkflows } from '@mcpflow/core/rules';
import { DIAGNOSTIC_SOURCE } from '../diagnostics/file-diagnostics';
import type { ProjectLock } from './project-lock';

/**
 * The tsconfig.json a program was read from, as `mcpflow lock` names it in the lock: relative to the
 * lock's folder, with `/`. Undefined for a program read without one (nothing to match).
 */
export function lockedProjectName(lockFile: string, configFile: unknown): string | undefined {
  if (typeof configFile !== 'string') return undefined;
  return path.relative(path.dirname(lockFile), configFile).split(path.sep).join('/');
}

/**
 * The workflows the program's lock records for this program's project that none of its classes
 * declares any more (`checkLockedWorkflows`, 91050), as diagnostics of `anchor` (the program's first
 * file that declares a workflow, else its first own file): a workflow that is gone has no place of
 * its own in the source, and the compiler reports a diagnostic only of a file it checks.
 */
export function goneWorkflowDiagnostics(
  t: typeof ts,
  program: ts.Program,
  lock: ProjectLock | undefined,
  declared: ReadonlySet<string>,
  anchor: ts.SourceFile,
): ts.Diagnostic[] {
  if (!lock?.lock) return [];
  const project = lockedProjectName(lock.file, program.getCompilerOptions().configFilePath);
  if (project === undefined) return [];
  const shown = path.relative(program.getCurrentDirectory(), lock.file) || path.basename(lock.file);
  return checkLockedWorkflows(lock.lock, project, declared, shown).map((error) => ({
    file: anchor,
    start: 0,
    length: 0,
    messageText: error.message,
    category: t.DiagnosticCategory.Error,
    code: error.code,
    source: DIAGNOSTIC_SOURCE,
  }));
}
