import * as path from 'node:path';
import * as ts from 'typescript';
import { workflowDiagnosticsOf } from '../program-diagnostics';

const USAGE = `Usage: mcpflow validate [-p <tsconfig.json>] [--json]

Checks the mcpflow workflows of a TypeScript project with mcpflow's own TypeScript ${ts.version},
whatever compiler the project builds with. Prints diagnostics as tsc does (or as JSON with --json)
and exits with 1 when there are errors.`;

interface Output {
  write(text: string): unknown;
}

/** `mcpflow validate`: returns the exit code (0 clean, 1 errors found, 2 bad usage or config). */
export function runCli(argv: readonly string[], stdout: Output, stderr: Output): number {
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h' || command === undefined) {
    (command === undefined ? stderr : stdout).write(`${USAGE}\n`);
    return command === undefined ? 2 : 0;
  }
  if (command !== 'validate') {
    stderr.write(`mcpflow: unknown command '${command}'.\n${USAGE}\n`);
    return 2;
  }
  let project = 'tsconfig.json';
  let json = false;
  for (let index = 0; index < rest.length; index += 1) {
    const flag = rest[index];
    if (flag === '--json') json = true;
    else if ((flag === '-p' || flag === '--project') && rest[index + 1]) project = rest[(index += 1)];
    else {
      stderr.write(`mcpflow: unknown option '${flag}'.\n${USAGE}\n`);
      return 2;
    }
  }
  const configPath = path.resolve(ts.sys.directoryExists(project) ? path.join(project, 'tsconfig.json') : project);
  const configErrors: ts.Diagnostic[] = [];
  const parsed = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (diagnostic) => configErrors.push(diagnostic) });
  if (!parsed || configErrors.length) {
    stderr.write(ts.formatDiagnostics(configErrors, formatHost()));
    return 2;
  }
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, projectReferences: parsed.projectReferences });
  const ours = workflowDiagnosticsOf(ts, program);
  // In tsc's order (by file, then position), so the two outputs read alike.
  const diagnostics = ts.sortAndDeduplicateDiagnostics(program.getSourceFiles().flatMap(ours));
  if (json) {
    stdout.write(`${JSON.stringify(diagnostics.map(toJson), null, 2)}\n`);
  } else if (diagnostics.length) {
    stdout.write(ts.formatDiagnostics(diagnostics, formatHost()));
    stdout.write(`\nFound ${diagnostics.length} mcpflow error${diagnostics.length === 1 ? '' : 's'}.\n`);
  }
  return diagnostics.length ? 1 : 0;
}

function formatHost(): ts.FormatDiagnosticsHost {
  return { getCanonicalFileName: (fileName) => fileName, getCurrentDirectory: () => process.cwd(), getNewLine: () => '\n' };
}

function toJson(diagnostic: ts.Diagnostic) {
  const position = diagnostic.file && diagnostic.start !== undefined ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start) : undefined;
  return {
    file: diagnostic.file ? path.relative(process.cwd(), diagnostic.file.fileName) : undefined,
    line: position ? position.line + 1 : undefined,
    column: position ? position.character + 1 : undefined,
    code: diagnostic.code,
    category: 'error',
    message: ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'),
  };
}
