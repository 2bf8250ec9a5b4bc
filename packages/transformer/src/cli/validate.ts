import * as path from 'node:path';
import * as ts from 'typescript';
import { buildRunsChecks } from '../build/build-runs-checks';
import { typoOf } from '../analyzer/program-tools';
import { DIAGNOSTIC_SOURCE, stringTools } from '../diagnostics/file-diagnostics';
import { workflowAt } from '../diagnostics/workflow-at';
import { ChecksNotInBuildError } from '../errors/checks-not-in-build-error';
import { programWorkflows, type ProgramWorkflows } from '../program-diagnostics';
import type { Output } from './output';

/** The options of `mcpflow validate`. */
export interface ValidateOptions {
  /** A tsconfig.json, or a folder holding one; a solution-style config (`"files": []` + `references`) checks each project it references. */
  project: string;
  json: boolean;
}

/** A diagnostic as validate reports it: mcpflow's or TypeScript's, and the workflow and step it sits in. */
interface Reported {
  readonly diagnostic: ts.Diagnostic;
  readonly workflow?: string;
  readonly step?: string;
}

/**
 * `mcpflow validate`: checks a project's workflows with mcpflow's own TypeScript 6, whatever
 * compiler the project builds with, and reports TypeScript's own errors in the files that declare
 * workflows too (a misspelled argument of a tool definition, a value of the wrong type), so it never
 * passes a workflow that tsc rejects. Says so when the project's build would not run the checks.
 * Returns the exit code (0 clean, 1 errors, 2 bad config).
 *
 * ```sh
 * npx mcpflow validate -p tsconfig.json
 * # Checked 3 workflows in 12 files: no mcpflow errors.
 * ```
 */
export function validateProject(options: ValidateOptions, stdout: Output, stderr: Output): number {
  const read = readProjects(options.project, stderr);
  if (!read) return 2;
  const { projects } = read;
  const reported: Reported[] = [];
  const notes: string[] = [];
  const checkedFiles = new Set<string>();
  let workflows = 0;
  for (const parsed of projects) {
    // Set by getParsedCommandLineOfConfigFile: the tsconfig this project was read from.
    const configFile = String(parsed.options.configFilePath);
    const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, projectReferences: parsed.projectReferences });
    const ofProgram = programWorkflows(ts, program);
    // A file two referenced projects both compile is checked and counted once.
    const files = program
      .getSourceFiles()
      .filter((file) => !file.isDeclarationFile && !program.isSourceFileFromExternalLibrary(file) && !checkedFiles.has(file.fileName));
    let found = 0;
    const unseen: string[] = [];
    for (const file of files) {
      checkedFiles.add(file.fileName);
      found += ofProgram.analysisOf(file).workflows.length;
      reported.push(...fileReport(program, ofProgram, file));
      unseen.push(...toolsLeftToStart(ofProgram, file));
    }
    workflows += found;
    if (unseen.length)
      notes.push(
        `Note: ${plural(unseen.length, 'tool name')} given by string ${unseen.length === 1 ? 'is' : 'are'} registered nowhere this program shows, ` +
          `so the server checks ${unseen.length === 1 ? 'it' : 'them'} at start: ${unseen.join(', ')}.\n`,
      );
    const build = found > 0 ? buildRunsChecks(parsed.options, path.dirname(configFile)) : { runs: true as const };
    if (!build.runs) {
      const { problem, fix } = new ChecksNotInBuildError('', build.reason, build.fix);
      const where = projects.length > 1 ? ` (${path.relative(process.cwd(), configFile)})` : '';
      notes.push(`Note${where}: ${problem} Fix: ${fix}\n`);
    }
  }
  const failed = reported.length ? 1 : 0;
  if (options.json) {
    stdout.write(`${JSON.stringify(reported.map(toJson), null, 2)}\n`);
    notes.forEach((note) => stderr.write(note));
    return failed;
  }
  const checked = `Checked ${plural(workflows, 'workflow')} in ${plural(checkedFiles.size, 'file')}`;
  if (reported.length) {
    stdout.write(
      ts.formatDiagnostics(
        reported.map((entry) => entry.diagnostic),
        formatHost(),
      ),
    );
    const typescript = reported.filter((entry) => entry.diagnostic.source !== DIAGNOSTIC_SOURCE).length;
    const mcpflow = plural(reported.length - typescript, 'mcpflow error');
    stdout.write(
      `\n${checked}.\nFound ${typescript ? `${mcpflow} and ${plural(typescript, 'TypeScript error')} in the files that declare workflows` : mcpflow}.\n`,
    );
  } else {
    stdout.write(`${checked}: no mcpflow errors.\n`);
  }
  notes.forEach((note) => stdout.write(note));
  return failed;
}

/**
 * A file's mcpflow diagnostics and, when it declares a workflow, TypeScript's own errors in it (as
 * mcpflow shows them), in source order; TypeScript's named after the workflow and step they sit in.
 */
function fileReport(program: ts.Program, workflows: ProgramWorkflows, file: ts.SourceFile): Reported[] {
  const analysis = workflows.analysisOf(file);
  const compiler =
    analysis.workflows.length === 0
      ? []
      : workflows.present(
          file,
          // Where the project's own TypeScript is patched, its program already carries mcpflow's diagnostics.
          [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)].filter(
            (diagnostic) => diagnostic.source !== DIAGNOSTIC_SOURCE && diagnostic.category === ts.DiagnosticCategory.Error,
          ),
        );
  return ts.sortAndDeduplicateDiagnostics([...workflows.diagnosticsOf(file), ...compiler]).map((diagnostic) => {
    const place = diagnostic.start === undefined ? undefined : workflowAt(ts, analysis, diagnostic.start);
    if (!place) return { diagnostic };
    const named = { workflow: place.workflow.model.name, step: place.step };
    if (diagnostic.source === DIAGNOSTIC_SOURCE) return { diagnostic, ...named };
    const where = place.step === undefined ? `Workflow '${named.workflow}': ` : `Workflow '${named.workflow}', step '${place.step}': `;
    const { messageText } = diagnostic;
    const text =
      typeof messageText === 'string' ? `${where}${messageText}` : { ...messageText, messageText: `${where}${messageText.messageText}` };
    return { diagnostic: { ...diagnostic, messageText: text }, ...named };
  });
}

/** The string tool names of a file's workflows that no visible registration matches, as `'name' (workflow 'w', step 's')`. */
function toolsLeftToStart(workflows: ProgramWorkflows, file: ts.SourceFile): string[] {
  const tools = workflows.context.tools?.();
  return workflows.analysisOf(file).workflows.flatMap((workflow) =>
    stringTools(ts, workflow)
      .filter(([, tool]) => !tools?.visible || (!tools.names.has(tool) && typoOf(tool, tools.names) === undefined))
      .map(([step, tool]) => `'${tool}' (workflow '${workflow.model.name}', step '${step}')`),
  );
}

/**
 * The tsconfig.json `-p` names (the file, or a folder holding one) and the projects it stands for
 * (`projectsToCheck`); undefined, with the config's errors written to `stderr`, when it cannot be read.
 */
export function readProjects(project: string, stderr: Output): { configPath: string; projects: ts.ParsedCommandLine[] } | undefined {
  const configPath = path.resolve(ts.sys.directoryExists(project) ? path.join(project, 'tsconfig.json') : project);
  const configErrors: ts.Diagnostic[] = [];
  const projects = projectsToCheck(configPath, configErrors);
  if (!configErrors.length) return { configPath, projects };
  stderr.write(ts.formatDiagnostics(configErrors, formatHost()));
  return undefined;
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

function toJson({ diagnostic, workflow, step }: Reported) {
  const position =
    diagnostic.file && diagnostic.start !== undefined ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start) : undefined;
  return {
    file: diagnostic.file ? path.relative(process.cwd(), diagnostic.file.fileName) : undefined,
    line: position ? position.line + 1 : undefined,
    column: position ? position.character + 1 : undefined,
    code: diagnostic.code,
    category: 'error',
    message: ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'),
    workflow,
    step,
  };
}
