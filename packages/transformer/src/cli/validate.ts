import * as path from 'node:path';
import * as ts from 'typescript';
import { analyzeFile } from '../analyzer/analyze-file';
import { extendedClasses } from '../analyzer/extended-classes';
import { workflowDiagnosticsOf } from '../program-diagnostics';
import type { Output } from './output';

/** The options of `mcpflow validate`. */
export interface ValidateOptions {
  /** A tsconfig.json, or a folder holding one; a solution-style config (`"files": []` + `references`) checks each project it references. */
  project: string;
  json: boolean;
}

/**
 * `mcpflow validate`: checks a project's workflows with mcpflow's own TypeScript 6, whatever
 * compiler the project builds with. Returns the exit code (0 clean, 1 errors, 2 bad config).
 *
 * ```sh
 * npx mcpflow validate -p tsconfig.json
 * # Checked 3 workflows in 12 files: no mcpflow errors.
 * ```
 */
export function validateProject(options: ValidateOptions, stdout: Output, stderr: Output): number {
  const configPath = path.resolve(ts.sys.directoryExists(options.project) ? path.join(options.project, 'tsconfig.json') : options.project);
  const configErrors: ts.Diagnostic[] = [];
  const projects = projectsToCheck(configPath, configErrors);
  if (configErrors.length) {
    stderr.write(ts.formatDiagnostics(configErrors, formatHost()));
    return 2;
  }
  const diagnostics: ts.Diagnostic[] = [];
  const checkedFiles = new Set<string>();
  let workflows = 0;
  for (const parsed of projects) {
    const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, projectReferences: parsed.projectReferences });
    const ours = workflowDiagnosticsOf(ts, program);
    // A file two referenced projects both compile is checked and counted once.
    const files = program
      .getSourceFiles()
      .filter((file) => !file.isDeclarationFile && !program.isSourceFileFromExternalLibrary(file) && !checkedFiles.has(file.fileName));
    files.forEach((file) => checkedFiles.add(file.fileName));
    diagnostics.push(...files.flatMap(ours));
    if (options.json) continue;
    // Say what was checked, so a clean run is told apart from one that found nothing to check.
    const context = { t: ts, checker: program.getTypeChecker(), isExtended: extendedClasses(ts, program) };
    workflows += files.reduce((count, file) => count + analyzeFile(context, file).workflows.length, 0);
  }
  if (options.json) {
    stdout.write(`${JSON.stringify(diagnostics.map(toJson), null, 2)}\n`);
    return diagnostics.length ? 1 : 0;
  }
  const checked = `Checked ${plural(workflows, 'workflow')} in ${plural(checkedFiles.size, 'file')}`;
  if (diagnostics.length) {
    stdout.write(ts.formatDiagnostics(diagnostics, formatHost()));
    stdout.write(`\n${checked}.\nFound ${plural(diagnostics.length, 'mcpflow error')}.\n`);
  } else {
    stdout.write(`${checked}: no mcpflow errors.\n`);
  }
  return diagnostics.length ? 1 : 0;
}

/**
 * The projects a config stands for: itself, or, for a solution-style config (`"files": []` and
 * `references`, as `tsc -b` builds), every project it references, followed transitively.
 */
export function projectsToCheck(configPath: string, configErrors: ts.Diagnostic[], seen = new Set<string>()): ts.ParsedCommandLine[] {
  if (seen.has(configPath)) return [];
  seen.add(configPath);
  const parsed = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (diagnostic) => configErrors.push(diagnostic) },
  );
  if (!parsed) return [];
  if (parsed.fileNames.length > 0 || !parsed.projectReferences?.length) return [parsed];
  return parsed.projectReferences.flatMap((reference) => projectsToCheck(ts.resolveProjectReferencePath(reference), configErrors, seen));
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

export function formatHost(): ts.FormatDiagnosticsHost {
  return { getCanonicalFileName: (fileName) => fileName, getCurrentDirectory: () => process.cwd(), getNewLine: () => '\n' };
}

function toJson(diagnostic: ts.Diagnostic) {
  const position =
    diagnostic.file && diagnostic.start !== undefined ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start) : undefined;
  return {
    file: diagnostic.file ? path.relative(process.cwd(), diagnostic.file.fileName) : undefined,
    line: position ? position.line + 1 : undefined,
    column: position ? position.character + 1 : undefined,
    code: diagnostic.code,
    category: 'error',
    message: ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'),
  };
}
