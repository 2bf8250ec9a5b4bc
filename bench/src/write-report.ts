/**
 * npm run bench:report [-- <results.json>] [--stdout]: writes the results section of BENCHMARKS.md
 * from a results file of `npm run bench` (bench/results.json by default), so the figures there are
 * always those of one run, with its commit. `--stdout` prints the section instead (a smoke pass's
 * results are accepted only then: CI checks the report still renders).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { renderResults, replaceResults } from './benchmarks-md';
import { RESULTS_FILE, readResults } from './results-file';

const BENCHMARKS_MD = path.resolve(__dirname, '..', '..', 'BENCHMARKS.md');

function main(): void {
  const args = process.argv.slice(2);
  const toStdout = args.includes('--stdout');
  const files = args.filter((arg) => !arg.startsWith('--'));
  const file = path.resolve(files[0] ?? RESULTS_FILE);
  const results = readResults(file);
  const section = renderResults(results);
  if (toStdout) {
    console.log(section);
    return;
  }
  if (results.smoke) throw new Error(`${file} holds a smoke pass, whose figures mean nothing: run npm run bench, then report its results.`);
  if (results.failures.length) console.error(`warning: ${results.failures.length} case(s) failed in that run; the report lists them.`);
  if (results.environment.dirty) console.error('warning: that run had uncommitted changes; the report says so.');
  fs.writeFileSync(BENCHMARKS_MD, replaceResults(fs.readFileSync(BENCHMARKS_MD, 'utf8'), section));
  console.log(
    `BENCHMARKS.md: results of ${results.environment.commit?.slice(0, 12) ?? 'no commit'} from ${path.relative(process.cwd(), file)}`,
  );
}

try {
  main();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
