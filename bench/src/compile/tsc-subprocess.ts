import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { stats, type Stats } from '../measure';
import { REPO, type GeneratedProject } from './generate-project';

const TSC = path.join(REPO, 'node_modules', 'typescript', 'lib', 'tsc.js');

function timeTsc(project: string): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [TSC, '-p', project], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`tsc failed on ${project}:\n${result.stdout}${result.stderr}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export interface SubprocessResult {
  plain: Stats;
  checked: Stats;
  ratio: number;
}

/**
 * The whole patched `tsc --noEmit` as a subprocess, with and without the plugin in tsconfig,
 * alternating runs after one warm run of each. End to end (node start-up, loading the compiler and
 * the plugin), but two separate processes: on a shared machine it swings by several percent.
 */
export function timeTscSubprocess(project: GeneratedProject, runs: number): SubprocessResult {
  timeTsc(project.plain);
  timeTsc(project.checked);
  const plain: number[] = [];
  const checked: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    if (run % 2) checked.push(timeTsc(project.checked));
    plain.push(timeTsc(project.plain));
    if (!(run % 2)) checked.push(timeTsc(project.checked));
  }
  const result = { plain: stats(plain), checked: stats(checked), ratio: 0 };
  result.ratio = result.checked.median / result.plain.median;
  return result;
}
