import type * as ts from 'typescript';
import { extendedClasses } from './analyzer/extended-classes';
import { fileDiagnostics } from './diagnostics/file-diagnostics';

const WRAPPED = Symbol.for('mcpflow:wrapped-program');

type DiagnosticsOfFile = (file?: ts.SourceFile, token?: ts.CancellationToken) => readonly ts.Diagnostic[];

/** The mcpflow diagnostics of one file of a program (none for declaration files and libraries), computed once per program. */
export function workflowDiagnosticsOf(t: typeof ts, program: ts.Program): (file: ts.SourceFile) => readonly ts.Diagnostic[] {
  const cache = new WeakMap<ts.SourceFile, readonly ts.Diagnostic[]>();
  const context = { t, checker: program.getTypeChecker(), isExtended: extendedClasses(t, program) };
  return (file) => {
    if (file.isDeclarationFile || program.isSourceFileFromExternalLibrary(file) || program.isSourceFileDefaultLibrary(file)) return [];
    let diagnostics = cache.get(file);
    if (!diagnostics) {
      diagnostics = fileDiagnostics(context, program.getCompilerOptions(), file);
      cache.set(file, diagnostics);
    }
    return diagnostics;
  };
}

/**
 * Adds mcpflow's diagnostics to a program's semantic diagnostics, so `tsc` and `tsc --noEmit` fail,
 * `--noEmitOnError` blocks emit, and the builder behind `tsc -b` and `--watch` (which asks
 * `getBindAndCheckDiagnostics` file by file) reports them too. Returns the same program.
 */
export function addWorkflowDiagnostics(t: typeof ts, program: ts.Program): ts.Program {
  const target = program as ts.Program & { [WRAPPED]?: true; getBindAndCheckDiagnostics?: DiagnosticsOfFile };
  if (target[WRAPPED]) return program;
  target[WRAPPED] = true;
  const ours = workflowDiagnosticsOf(t, program);
  const wrap = (original: DiagnosticsOfFile): DiagnosticsOfFile =>
    function (this: unknown, file, token) {
      const base = original.call(program, file, token);
      const added = file ? ours(file) : program.getSourceFiles().flatMap(ours);
      return added.length ? [...base, ...added] : base;
    };
  target.getSemanticDiagnostics = wrap(program.getSemanticDiagnostics);
  if (typeof target.getBindAndCheckDiagnostics === 'function') target.getBindAndCheckDiagnostics = wrap(target.getBindAndCheckDiagnostics);
  return program;
}
