import * as path from 'node:path';
import * as ts from 'typescript';
import { mermaidGraph, type WorkflowModel } from '@mcpflow/core/model';
import { analyzeFile } from '../analyzer/analyze-file';
import { extendedClasses } from '../analyzer/extended-classes';
import type { Output } from './output';
import { formatHost, projectsToCheck } from './validate';

/** The options of `mcpflow graph`: one file, or a project (a tsconfig.json or a folder holding one). */
export type GraphOptions = ({ file: string } | { project: string }) & {
  /** Prints only the workflow of this (prompt) name. */
  workflow?: string;
};

/** How to call `mcpflow graph`. */
export const GRAPH_USAGE = 'mcpflow graph <file.ts | -p <tsconfig.json>> [--workflow <name>]';

/** `mcpflow graph …` from its command-line arguments: parses them, then prints the graphs. Returns the exit code. */
export function graphCommand(argv: readonly string[], stdout: Output, stderr: Output): number {
  let file: string | undefined;
  let project: string | undefined;
  let workflow: string | undefined;
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index];
    const value = argv[index + 1];
    if ((arg === '-p' || arg === '--project') && value !== undefined && project === undefined) [project, index] = [value, index + 1];
    else if (arg === '--workflow' && value !== undefined && workflow === undefined) [workflow, index] = [value, index + 1];
    else if (!arg.startsWith('-') && file === undefined) file = arg;
    else return usageError(`unexpected argument '${arg}'`, stderr);
  }
  if ((file === undefined) === (project === undefined)) return usageError('give one file or one -p <tsconfig.json>', stderr);
  return printGraphs(file === undefined ? { project: project!, workflow } : { file, workflow }, stdout, stderr);
}

function usageError(problem: string, stderr: Output): number {
  stderr.write(`mcpflow graph: ${problem}.\nUsage: ${GRAPH_USAGE}\n`);
  return 2;
}

/**
 * `mcpflow graph`: prints each workflow of a file or a project as a raw Mermaid `flowchart TD`
 * (several are separated by a blank line), read from the source by the same analyzer the compiler
 * checks with. Returns the exit code: 0 printed, 1 no such workflow, 2 bad config.
 *
 * ```sh
 * npx mcpflow graph src/server.ts --workflow get_hint
 * # flowchart TD
 * #   start(["get_hint"])
 * #   s0["progress"]
 * #   …
 * ```
 */
function printGraphs(options: GraphOptions, stdout: Output, stderr: Output): number {
  if ('file' in options && !ts.sys.fileExists(options.file)) {
    stderr.write(`mcpflow graph: cannot read '${options.file}': no such file.\n`);
    return 2;
  }
  const configErrors: ts.Diagnostic[] = [];
  const programs = 'file' in options ? [fileProgram(options.file, configErrors)] : projectPrograms(options.project, configErrors);
  if (configErrors.length) {
    stderr.write(ts.formatDiagnostics(configErrors, formatHost()));
    return 2;
  }
  const where = 'file' in options ? options.file : options.project;
  const workflows = programs.flatMap((program) => workflowsOf(program));
  if (workflows.length === 0) {
    stderr.write(`mcpflow graph: no workflow (a class with @Workflow) in ${where}.\n`);
    return 1;
  }
  const chosen = options.workflow === undefined ? workflows : workflows.filter((workflow) => workflow.name === options.workflow);
  if (chosen.length === 0) {
    const names = workflows.map((workflow) => workflow.name).join(', ');
    stderr.write(`mcpflow graph: no workflow named '${options.workflow}' in ${where}. Its workflows: ${names}.\n`);
    return 1;
  }
  stdout.write(`${chosen.map((workflow) => mermaidGraph(workflow)).join('\n\n')}\n`);
  return 0;
}

/** A program of one file, compiled with the options of the tsconfig.json nearest to it (so its imports resolve as in its project). */
function fileProgram(file: string, configErrors: ts.Diagnostic[]): ts.Program {
  const fileName = path.resolve(file);
  const configPath = ts.findConfigFile(path.dirname(fileName), ts.sys.fileExists);
  const parsed = configPath ? ts.getParsedCommandLineOfConfigFile(configPath, {}, configHost(configErrors)) : undefined;
  const options = parsed?.options ?? { experimentalDecorators: true, target: ts.ScriptTarget.ES2022 };
  return ts.createProgram({ rootNames: [fileName], options });
}

function projectPrograms(project: string, configErrors: ts.Diagnostic[]): ts.Program[] {
  const configPath = path.resolve(ts.sys.directoryExists(project) ? path.join(project, 'tsconfig.json') : project);
  return projectsToCheck(configPath, configErrors).map((parsed) =>
    ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, projectReferences: parsed.projectReferences }),
  );
}

/** The workflows declared in a program's root files, in file order, then source order. */
function workflowsOf(program: ts.Program): WorkflowModel[] {
  const context = { t: ts, checker: program.getTypeChecker(), isExtended: extendedClasses(ts, program) };
  return program
    .getRootFileNames()
    .map((fileName) => program.getSourceFile(fileName))
    .filter((file): file is ts.SourceFile => file !== undefined && !file.isDeclarationFile)
    .flatMap((file) => analyzeFile(context, file).workflows.map((workflow) => workflow.model));
}

function configHost(configErrors: ts.Diagnostic[]): ts.ParseConfigFileHost {
  return { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (diagnostic) => configErrors.push(diagnostic) };
}
