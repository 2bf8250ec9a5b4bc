import * as path from 'node:path';
import type * as ts from 'typescript';
import { LOCK_FILE, readLock, type WorkflowLock } from '@mcpflow/core/model';

/** The `mcpflow.lock.json` a program is checked against: where it is, and what it says or why it cannot be read. */
export type ProjectLock =
  | { readonly file: string; readonly lock: WorkflowLock; readonly problem?: undefined }
  | { readonly file: string; readonly lock?: undefined; readonly problem: string };

/**
 * The folder a program's lock is looked for from: its tsconfig.json's (`configFilePath`, which tsc,
 * tspc, the editor and `mcpflow validate` set), else the program's current directory.
 */
function lockSearchStart(program: ts.Program): string {
  const config = program.getCompilerOptions().configFilePath;
  return typeof config === 'string' ? path.dirname(config) : program.getCurrentDirectory();
}

/**
 * The lock of a program: `mcpflow.lock.json` in the folder of its tsconfig.json or, failing that,
 * in the nearest folder above it (so one lock at a repository's root serves every project in it).
 * None found: undefined, and nothing is checked (DESIGN §2.16: a project in development is never
 * nagged).
 *
 * @example
 * ```ts
 * const found = findProjectLock(ts, program); // { file: '/app/mcpflow.lock.json', lock: Map { 'nightly_build' => … } }
 * ```
 */
export function findProjectLock(t: typeof ts, program: ts.Program): ProjectLock | undefined {
  for (let folder = lockSearchStart(program); ;) {
    const file = path.join(folder, LOCK_FILE);
    if (t.sys.fileExists(file)) return readProjectLock(t, file);
    const parent = path.dirname(folder);
    if (parent === folder) return undefined;
    folder = parent;
  }
}

function readProjectLock(t: typeof ts, file: string): ProjectLock {
  const text = t.sys.readFile(file);
  if (text === undefined) return { file, problem: 'it cannot be read' };
  try {
    return { file, lock: readLock(text) };
  } catch (error) {
    return { file, problem: (error as Error).message };
  }
}
