import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import * as ts from 'typescript';
import type { GeneratedProject } from './generate-project';

/** Wall-clock and CPU time of one phase, in ms. */
export interface PhaseTime {
  wallMs: number;
  /** CPU time of this process (user + system): what the phase cost, without the time spent waiting for a core on a shared machine. */
  cpuMs: number;
  /**
   * The part of `cpuMs` spent on the main thread, where the compiler and the transformer run (Linux
   * only): the rest is V8's helper threads, chiefly optimizing compilation of hot functions, which a
   * larger program sets off for more of them.
   */
  mainCpuMs?: number;
}

/** One `tsc --noEmit`'s work in process, split into what the compiler does and what the transformer adds. */
export interface CheckTimings {
  /** Reading, parsing and resolving every file (`createProgram`). */
  program: PhaseTime;
  /** Binding and type-checking: the compiler's diagnostics, as `tsc --noEmit` asks for them. */
  check: PhaseTime;
  /** The transformer's hook on the same program: `getSemanticDiagnostics()` again, now wrapped (the compiler's part is cached). */
  transformer: PhaseTime;
}

/** The main thread's time on a CPU so far, in ms (the first field of its schedstat, in ns); undefined where /proc has none. */
function mainThreadCpuMs(): number | undefined {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return undefined;
  }
}

interface Clock {
  wall: number;
  cpu: NodeJS.CpuUsage;
  main: number | undefined;
}

function clock(): Clock {
  return { wall: performance.now(), cpu: process.cpuUsage(), main: mainThreadCpuMs() };
}

function since(start: Clock, end: Clock): PhaseTime {
  return {
    wallMs: end.wall - start.wall,
    cpuMs: (end.cpu.user - start.cpu.user + end.cpu.system - start.cpu.system) / 1000,
    mainCpuMs: start.main === undefined || end.main === undefined ? undefined : end.main - start.main,
  };
}

function parseConfig(file: string): ts.ParsedCommandLine {
  const config = ts.getParsedCommandLineOfConfigFile(file, undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  });
  if (!config) throw new Error(`cannot read ${file}`);
  return config;
}

/**
 * Does what `tsc --noEmit` does with the project (plus its sentinel file) in this process, timing the
 * compiler's work and then the transformer's hook on the very same program: the order tsc itself
 * uses (the wrapped `getSemanticDiagnostics` asks the compiler first, then adds mcpflow's). Refuses
 * to report when the compiler finds an error or the transformer misses the sentinel's.
 */
export function checkInProcess(project: GeneratedProject, transformer: typeof import('@mcpflow/transformer').default): CheckTimings {
  const config = parseConfig(project.plain);
  const start = clock();
  const program = ts.createProgram({
    rootNames: [...config.fileNames, project.sentinel],
    options: config.options,
    configFileParsingDiagnostics: config.errors,
  });
  const created = clock();
  const compilerDiagnostics = [
    ...program.getConfigFileParsingDiagnostics(),
    ...program.getOptionsDiagnostics(),
    ...program.getSyntacticDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...program.getSemanticDiagnostics(),
  ];
  const checked = clock();
  transformer(program, undefined, undefined, { ts });
  const withOurs = program.getSemanticDiagnostics();
  const done = clock();
  if (compilerDiagnostics.length)
    throw new Error(
      `the generated project does not compile:\n${ts.formatDiagnostics(compilerDiagnostics, { getCanonicalFileName: (name) => name, getCurrentDirectory: () => process.cwd(), getNewLine: () => '\n' })}`,
    );
  const ours = withOurs.filter((diagnostic) => diagnostic.source === 'mcpflow');
  if (ours.length !== 1 || ours[0].file?.fileName !== project.sentinel.replace(/\\/g, '/')) {
    throw new Error(`the transformer did not run: expected one mcpflow diagnostic in ${project.sentinel}, got ${ours.length}`);
  }
  return { program: since(start, created), check: since(created, checked), transformer: since(checked, done) };
}
