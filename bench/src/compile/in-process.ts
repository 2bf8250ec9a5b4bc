import { fork } from 'node:child_process';
import * as path from 'node:path';
import { stats, type Stats } from '../measure';
import type { ChildTimings } from './check-child';
import type { PhaseTime } from './check-in-process';
import type { GeneratedProject } from './generate-project';

/** Medians of one clock (CPU or wall) over the fresh processes. */
export interface ClockResult {
  /**
   * A whole tsc run, cold (each process's first round): with the transformer ÷ without, i.e.
   * (start-up + program + check + plugin load + transformer) ÷ (start-up + program + check).
   */
  ratio: Stats;
  /** Only the transformer against the compiler's program and check, cold: (program + check + transformer) ÷ (program + check). */
  checkingRatio: Stats;
  /** The same on the later, warm rounds of each process. */
  warmCheckingRatio: Stats;
  startupMs: Stats;
  programMs: Stats;
  checkMs: Stats;
  transformerMs: Stats;
  pluginLoadMs: Stats;
}

export interface InProcessResult {
  cpu: ClockResult;
  wall: ClockResult;
}

function runChild(project: GeneratedProject, rounds: number): Promise<ChildTimings> {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(__dirname, 'check-child.js'), [JSON.stringify(project), String(rounds)], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let timings: ChildTimings | undefined;
    child.once('message', (message) => (timings = message as ChildTimings));
    child.once('error', reject);
    child.once('exit', (code) => (timings ? resolve(timings) : reject(new Error(`the compile benchmark's child exited with ${code}`))));
  });
}

function summarize(children: ChildTimings[], read: (phase: PhaseTime) => number): ClockResult {
  const cold = children.map((child) => ({ child, round: child.rounds[0] }));
  const compiler = (round: ChildTimings['rounds'][number]) => read(round.program) + read(round.check);
  return {
    ratio: stats(
      cold.map(({ child, round }) => {
        const plain = read(child.startup) + compiler(round);
        return (plain + read(child.pluginLoad) + read(round.transformer)) / plain;
      }),
    ),
    checkingRatio: stats(cold.map(({ round }) => (compiler(round) + read(round.transformer)) / compiler(round))),
    warmCheckingRatio: stats(
      children.flatMap((child) => child.rounds.slice(1)).map((round) => (compiler(round) + read(round.transformer)) / compiler(round)),
    ),
    startupMs: stats(children.map((child) => read(child.startup))),
    programMs: stats(cold.map(({ round }) => read(round.program))),
    checkMs: stats(cold.map(({ round }) => read(round.check))),
    transformerMs: stats(cold.map(({ round }) => read(round.transformer))),
    pluginLoadMs: stats(children.map((child) => read(child.pluginLoad))),
  };
}

/**
 * What the transformer adds to a tsc run, measured inside fresh processes that each do what
 * `tsc --noEmit` does: start, load the compiler, build the program, check it, then (as the plugin
 * does) load the transformer and run its hook on the same program. Timed by CPU and by wall clock.
 * Both sides of every ratio come from the same process, seconds apart at most, instead of two
 * separate tsc runs. Several projects are measured interleaved (one process of each in turn,
 * rotating which goes first), so a slow minute of a shared machine hits them alike; `children`
 * keeps each project's processes in that order, for figures paired process by process.
 */
export async function timeInProcess(
  projects: readonly GeneratedProject[],
  processes: number,
  rounds: number,
): Promise<(InProcessResult & { children: ChildTimings[] })[]> {
  const children: ChildTimings[][] = projects.map(() => []);
  for (let index = 0; index < processes; index += 1) {
    for (let offset = 0; offset < projects.length; offset += 1) {
      const which = (index + offset) % projects.length;
      children[which].push(await runChild(projects[which], rounds));
    }
  }
  return children.map((ofProject) => ({
    cpu: summarize(ofProject, (phase) => phase.cpuMs),
    wall: summarize(ofProject, (phase) => phase.wallMs),
    children: ofProject,
  }));
}
