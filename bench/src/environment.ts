import { execFileSync } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '..', '..');

/** What a results file says about where its figures were taken: the code, the machine, and how busy it was. */
export interface Environment {
  /** `git rev-parse HEAD`, or undefined outside a git checkout. */
  commit?: string;
  /** True when the working tree had changes not committed: the figures are then not those of `commit`. */
  dirty?: boolean;
  node: string;
  cpus: number;
  cpu?: string;
  memoryGiB: number;
  platform: string;
  /** `os.loadavg()` (1, 5 and 15 minutes) when the run started and when it ended. */
  loadAverageAtStart: number[];
  loadAverageAtEnd?: number[];
  startedAt: string;
  endedAt?: string;
}

function git(args: string[]): string | undefined {
  try {
    return execFileSync('git', args, { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

/** The environment as a run starts; `finishEnvironment` adds the load average at its end. */
export function startEnvironment(): Environment {
  const commit = git(['rev-parse', 'HEAD']);
  // Untracked files count: a new source file changes what was measured as much as an edit does.
  const status = commit === undefined ? undefined : git(['status', '--porcelain']);
  return {
    commit,
    dirty: status === undefined ? undefined : status.length > 0,
    node: process.version,
    cpus: os.cpus().length,
    cpu: os.cpus()[0]?.model,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    platform: `${os.platform()} ${os.release()}`,
    loadAverageAtStart: os.loadavg(),
    startedAt: new Date().toISOString(),
  };
}

export function finishEnvironment(environment: Environment): Environment {
  return { ...environment, loadAverageAtEnd: os.loadavg(), endedAt: new Date().toISOString() };
}
