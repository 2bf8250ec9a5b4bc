/**
 * A fresh process for the in-process compile benchmark: loads the compiler (through the imports
 * below), then the plugin (as ts-patch does, once per tsc run), then checks the project `rounds`
 * times. The first round is cold, as in a real `tsc`; the others are warm. Sends the timings to the
 * parent.
 */
import { performance } from 'node:perf_hooks';
import { checkInProcess, type CheckTimings, type PhaseTime } from './check-in-process';
import type { GeneratedProject } from './generate-project';

export interface ChildTimings {
  /** From the process's start to here: node's own start-up and loading the compiler, as tsc starts. */
  startup: PhaseTime;
  pluginLoad: PhaseTime;
  rounds: CheckTimings[];
}

async function main(): Promise<void> {
  const [projectJson, roundsArg] = process.argv.slice(2);
  const project = JSON.parse(projectJson) as GeneratedProject;
  // performance.now() counts from the process's start, and process.cpuUsage() from zero.
  const wall = performance.now();
  const cpu = process.cpuUsage();
  const startup = { wallMs: wall, cpuMs: (cpu.user + cpu.system) / 1000 };
  const transformer = (await import('@mcpflow/transformer')).default;
  const used = process.cpuUsage(cpu);
  const pluginLoad = { wallMs: performance.now() - wall, cpuMs: (used.user + used.system) / 1000 };
  const rounds: CheckTimings[] = [];
  for (let round = 0; round < Number(roundsArg); round += 1) rounds.push(checkInProcess(project, transformer));
  process.send?.({ startup, pluginLoad, rounds } satisfies ChildTimings);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
