/**
 * npm run bench: every figure is a median over repeated runs after warm-up (min and max beside it),
 * measured side by side with its baseline in the same process — each case in a fresh node process
 * of its own (fork-case.ts), so no case measures what an earlier one left behind. Prints a table
 * and writes bench/results.json (with the commit, the machine and its load); `npm run bench:report`
 * turns that file into BENCHMARKS.md's results. `npm run bench -- engine compile` runs the cases
 * named `engine`, `engine-…` and `compile`; `npm run bench -- --smoke` runs every case with a few
 * iterations and judges no target (CI). Exits non-zero when a case throws. See BENCHMARKS.md.
 */
import * as path from 'node:path';
import type { Figure } from './case';
import { CASES } from './cases';
import { forkCase } from './fork-case';
import { finishEnvironment, startEnvironment } from './environment';
import { RESULTS_FILE, SMOKE_RESULTS_FILE, writeResults, type BenchResults, type CaseFailure } from './results-file';
import type { RunOptions } from './run-options';

function select(names: string[]) {
  const selected = CASES.filter(
    (bench) => names.length === 0 || names.some((name) => bench.name === name || bench.name.startsWith(`${name}-`)),
  );
  if (selected.length === 0)
    throw new Error(`no benchmark named ${names.join(', ')}; there are: ${CASES.map((bench) => bench.name).join(', ')}`);
  return selected;
}

function printTable(figures: Figure[], options: RunOptions): void {
  if (figures.length === 0) return;
  const width = Math.max(...figures.map((row) => row.benchmark.length));
  for (const row of figures) {
    const verdict = options.smoke ? 'RAN ' : row.met === undefined ? '    ' : row.met ? 'PASS' : 'MISS';
    console.log(`${verdict}  ${row.benchmark.padEnd(width)}  ${row.figure}   [target ${row.target}]`);
  }
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const options: RunOptions = { smoke: args.includes('--smoke') };
  const unknown = args.filter((arg) => arg.startsWith('-') && arg !== '--smoke');
  if (unknown.length) throw new Error(`unknown option ${unknown.join(', ')}; usage: npm run bench -- [--smoke] [case …]`);
  const selected = select(args.filter((arg) => !arg.startsWith('-')));
  const environment = startEnvironment();
  const results: Record<string, unknown> = {};
  const figures: Figure[] = [];
  const failures: CaseFailure[] = [];
  for (const bench of selected) {
    console.error(`running ${bench.name}${options.smoke ? ' (smoke)' : ''}…`);
    try {
      const { result, figures: rows } = await forkCase(bench, options);
      results[bench.name] = result;
      figures.push(...rows);
    } catch (error) {
      console.error(`${bench.name} failed:`, error);
      failures.push({ case: bench.name, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    }
  }
  const finished = finishEnvironment(environment);
  const commit = finished.commit
    ? `${finished.commit.slice(0, 12)}${finished.dirty ? ' (with uncommitted changes)' : ''}`
    : 'no git commit';
  console.log(
    `\nmcpflow benchmarks${options.smoke ? ' — smoke pass, no timing targets' : ''} — ${commit}, node ${finished.node}, ` +
      `${finished.cpus} × ${finished.cpu ?? 'cpu'}, load average ${finished.loadAverageAtStart.map((load) => load.toFixed(2)).join(' ')} at start, ` +
      `${finished.loadAverageAtEnd?.map((load) => load.toFixed(2)).join(' ')} at end\n`,
  );
  printTable(figures, options);
  const file = options.smoke ? SMOKE_RESULTS_FILE : RESULTS_FILE;
  const written: BenchResults = {
    format: 2,
    smoke: options.smoke,
    environment: finished,
    selected: selected.map((bench) => bench.name),
    results,
    figures,
    failures,
  };
  writeResults(file, written);
  console.log(`\nWritten to ${path.relative(process.cwd(), file)}`);
  if (failures.length) console.error(`\n${failures.length} case(s) failed: ${failures.map((failure) => failure.case).join(', ')}`);
  return failures.length ? 1 : 0;
}

main().then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
