import type * as ts from 'typescript';
import { workflowFaces } from '@mcpflow/core/model';
import { analyzeFile, type FileAnalysis } from './analyzer/analyze-file';
import { programTools, type ProgramTools } from './analyzer/program-tools';
import type { AnalyzerContext, ProgramVersions } from './analyzer/analyzer-context';
import { findProjectLock } from './lock/project-lock';
import { goneWorkflowDiagnostics } from './lock/gone-workflows';
import { extendedClasses } from './analyzer/extended-classes';
import { presentCompilerDiagnostics } from './diagnostics/compiler-diagnostics';
import { fileDiagnostics } from './diagnostics/file-diagnostics';

const WRAPPED = Symbol.for('mcpflow:wrapped-program');

type DiagnosticsOfFile = (file?: ts.SourceFile, token?: ts.CancellationToken) => readonly ts.Diagnostic[];

/** What mcpflow knows of one program's files, each computed once: the workflows read, and their diagnostics. */
export interface ProgramWorkflows {
  readonly context: AnalyzerContext;
  /** The workflow classes of a file (none for declaration files and libraries). */
  analysisOf(file: ts.SourceFile): FileAnalysis;
  /** mcpflow's diagnostics of a file. */
  diagnosticsOf(file: ts.SourceFile): readonly ts.Diagnostic[];
  /** TypeScript's own diagnostics of a file, as mcpflow shows them (see `presentCompilerDiagnostics`). */
  present(file: ts.SourceFile, diagnostics: readonly ts.Diagnostic[]): readonly ts.Diagnostic[];
}

const NONE: FileAnalysis = { workflows: [], errors: [] };
const byProgram = new WeakMap<ts.Program, ProgramWorkflows>();

/**
 * The workflows of a program, read once per program and file, whoever asks: the wrapped
 * diagnostics, the editor plugin, the CLI.
 *
 * @example
 * ```ts
 * const workflows = programWorkflows(ts, program);
 * const count = program.getSourceFiles().reduce((sum, file) => sum + workflows.analysisOf(file).workflows.length, 0);
 * ```
 */
export function programWorkflows(t: typeof ts, program: ts.Program): ProgramWorkflows {
  const known = byProgram.get(program);
  if (known) return known;
  const own = (file: ts.SourceFile) =>
    !file.isDeclarationFile && !program.isSourceFileFromExternalLibrary(file) && !program.isSourceFileDefaultLibrary(file);
  let tools: ProgramTools | undefined;
  let versions: ProgramVersions | undefined;
  const context: AnalyzerContext = {
    t,
    checker: program.getTypeChecker(),
    isExtended: extendedClasses(t, program),
    tools: () => (tools ??= withToolFaces(programTools(t, program.getSourceFiles().filter(own)), workflows, program, own)),
    versions: () => (versions ??= programVersions(t, program, workflows, own)),
  };
  const options = program.getCompilerOptions();
  const analyses = new WeakMap<ts.SourceFile, FileAnalysis>();
  const diagnostics = new WeakMap<ts.SourceFile, readonly ts.Diagnostic[]>();
  let gone: { anchor?: ts.SourceFile; diagnostics: readonly ts.Diagnostic[] } | undefined;
  /** The locked workflows this program no longer declares, reported in one file of it (`goneWorkflowDiagnostics`). */
  const goneOf = (file: ts.SourceFile): readonly ts.Diagnostic[] => {
    gone ??= goneWorkflows(t, program, workflows, own);
    return gone.anchor === file ? gone.diagnostics : [];
  };
  const workflows: ProgramWorkflows = {
    context,
    analysisOf(file) {
      if (!own(file)) return NONE;
      let analysis = analyses.get(file);
      if (!analysis) analyses.set(file, (analysis = analyzeFile(context, file)));
      return analysis;
    },
    diagnosticsOf(file) {
      if (!own(file)) return [];
      let found = diagnostics.get(file);
      if (!found)
        diagnostics.set(file, (found = [...goneOf(file), ...fileDiagnostics(context, options, file, workflows.analysisOf(file))]));
      return found;
    },
    present(file, compiler) {
      // Most files have no diagnostic of the compiler's: no need to read their workflows for that.
      return compiler.length === 0 || !own(file)
        ? compiler
        : presentCompilerDiagnostics(context, options, file, workflows.analysisOf(file), compiler);
    },
  };
  byProgram.set(program, workflows);
  return workflows;
}

/** The program's tools, with the tool faces of its workflows (`expose.tool`), which `use()` registers; read only when registrations are visible. */
function withToolFaces(
  found: ProgramTools,
  workflows: ProgramWorkflows,
  program: ts.Program,
  own: (file: ts.SourceFile) => boolean,
): ProgramTools {
  if (!found.visible) return found;
  const names = new Set(found.names);
  for (const file of program.getSourceFiles())
    if (own(file))
      for (const { model } of workflows.analysisOf(file).workflows) {
        const face = workflowFaces(model).tool;
        if (face) names.add(face.name);
      }
  return { visible: true, names };
}

/** The program's `mcpflow.lock.json` (`findProjectLock`) and the classes some workflow of it lists in `previous`. */
function programVersions(
  t: typeof ts,
  program: ts.Program,
  workflows: ProgramWorkflows,
  own: (file: ts.SourceFile) => boolean,
): ProgramVersions {
  const previous = new Set<ts.ClassLikeDeclaration>();
  for (const file of program.getSourceFiles())
    if (own(file))
      for (const workflow of workflows.analysisOf(file).workflows) workflow.previousClasses.forEach((node) => previous.add(node));
  return { lock: findProjectLock(t, program), isPrevious: (node) => previous.has(node) };
}

/** The locked workflows gone from the program (`goneWorkflowDiagnostics`), and the file they are reported in. */
function goneWorkflows(
  t: typeof ts,
  program: ts.Program,
  workflows: ProgramWorkflows,
  own: (file: ts.SourceFile) => boolean,
): { anchor?: ts.SourceFile; diagnostics: readonly ts.Diagnostic[] } {
  const lock = workflows.context.versions?.().lock;
  if (!lock?.lock) return { diagnostics: [] };
  const files = program.getSourceFiles().filter(own);
  const declared = new Set<string>();
  let anchor: ts.SourceFile | undefined;
  for (const file of files)
    for (const workflow of workflows.analysisOf(file).workflows) {
      anchor ??= file;
      declared.add(workflow.model.name);
    }
  anchor ??= files[0];
  return anchor ? { anchor, diagnostics: goneWorkflowDiagnostics(t, program, lock, declared, anchor) } : { diagnostics: [] };
}

/** The mcpflow diagnostics of one file of a program (none for declaration files and libraries), computed once per program. */
export function workflowDiagnosticsOf(t: typeof ts, program: ts.Program): (file: ts.SourceFile) => readonly ts.Diagnostic[] {
  const workflows = programWorkflows(t, program);
  return (file) => workflows.diagnosticsOf(file);
}

/**
 * Adds mcpflow's diagnostics to a program's semantic diagnostics, so `tsc` and `tsc --noEmit` fail,
 * `--noEmitOnError` blocks emit, and the builder behind `tsc -b` and `--watch` (which asks
 * `getBindAndCheckDiagnostics` file by file) reports them too; and shows TypeScript's own where
 * mcpflow knows better (`presentCompilerDiagnostics`). Returns the same program.
 */
export function addWorkflowDiagnostics(t: typeof ts, program: ts.Program): ts.Program {
  const target = program as ts.Program & { [WRAPPED]?: true; getBindAndCheckDiagnostics?: DiagnosticsOfFile };
  if (target[WRAPPED]) return program;
  target[WRAPPED] = true;
  const workflows = programWorkflows(t, program);
  const wrap = (original: DiagnosticsOfFile): DiagnosticsOfFile =>
    function (this: unknown, file, token) {
      const base = original.call(program, file, token);
      if (file) {
        const added = workflows.diagnosticsOf(file);
        const shown = workflows.present(file, base);
        return added.length ? [...shown, ...added] : shown;
      }
      const added = program.getSourceFiles().flatMap((each) => workflows.diagnosticsOf(each));
      const shown = presentAll(workflows, base);
      return added.length ? [...shown, ...added] : shown;
    };
  target.getSemanticDiagnostics = wrap(program.getSemanticDiagnostics);
  if (typeof target.getBindAndCheckDiagnostics === 'function') target.getBindAndCheckDiagnostics = wrap(target.getBindAndCheckDiagnostics);
  return program;
}

/** A whole program's compiler diagnostics, presented file by file (the program's order is kept). */
function presentAll(workflows: ProgramWorkflows, diagnostics: readonly ts.Diagnostic[]): readonly ts.Diagnostic[] {
  const byFile = new Map<ts.SourceFile, ts.Diagnostic[]>();
  for (const diagnostic of diagnostics)
    if (diagnostic.file) byFile.set(diagnostic.file, [...(byFile.get(diagnostic.file) ?? []), diagnostic]);
  const replaced = new Map<ts.Diagnostic, readonly ts.Diagnostic[]>();
  let changed = false;
  for (const [file, ofFile] of byFile) {
    const shown = workflows.present(file, ofFile);
    if (shown === ofFile) continue;
    changed = true;
    ofFile.forEach((diagnostic, index) => replaced.set(diagnostic, index === 0 ? shown : []));
  }
  return changed ? diagnostics.flatMap((diagnostic) => replaced.get(diagnostic) ?? [diagnostic]) : diagnostics;
}
