import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Figure } from './case';
import type { Environment } from './environment';

/** Where `npm run bench` writes its results, and `npm run bench:report` reads them from by default. */
export const RESULTS_FILE = path.resolve(__dirname, '..', 'results.json');
/** A smoke pass writes apart, so it never replaces the results of a real run. */
export const SMOKE_RESULTS_FILE = path.resolve(__dirname, '..', 'results-smoke.json');

/** A case that threw: the run goes on with the others, then exits non-zero. */
export interface CaseFailure {
  case: string;
  error: string;
}

/** What a run of `npm run bench` writes: the environment, every case's raw result, the table's rows. */
export interface BenchResults {
  /** Bumped when the shape changes, so an old file is refused instead of misread. */
  format: 2;
  smoke: boolean;
  environment: Environment;
  /** The cases run, in order (a subset when names were given). */
  selected: string[];
  results: Record<string, unknown>;
  figures: Figure[];
  failures: CaseFailure[];
}

export function writeResults(file: string, results: BenchResults): void {
  fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
}

export function readResults(file: string): BenchResults {
  const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<BenchResults>;
  if (parsed.format !== 2 || !parsed.environment || !Array.isArray(parsed.figures)) {
    throw new Error(`${file} is not a results file of this version of npm run bench (format 2); run npm run bench again.`);
  }
  return parsed as BenchResults;
}
