/**
 * npm run bench: every figure is a median over repeated runs after warm-up (min and max beside it),
 * measured side by side with its baseline in the same process. Prints a table and writes
 * bench/results.json. `npm run bench -- engine compile` runs the cases named `engine`, `engine-…`
 * and `compile`. See BENCHMARKS.md for the method.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Figure } from './case';
import { CASES } from './cases';

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const selected = CASES.filter(
    (bench) => only.length === 0 || only.some((name) => bench.name === name || bench.name.startsWith(`${name}-`)),
  );
  if (selected.length === 0)
    throw new Error(`no benchmark named ${only.join(', ')}; there are: ${CASES.map((bench) => bench.name).join(', ')}`);
  const figures: Figure[] = [];
  const results: Record<string, unknown> = {
    machine: {
      node: process.version,
      cpus: os.cpus().length,
      cpu: os.cpus()[0]?.model,
      memoryGiB: Math.round(os.totalmem() / 2 ** 30),
      platform: `${os.platform()} ${os.release()}`,
      loadAverageAtStart: os.loadavg(),
    },
    date: new Date().toISOString(),
  };
  for (const bench of selected) {
    console.error(`running ${bench.name}…`);
    const { result, figures: rows } = await bench.run();
    results[bench.name] = result;
    figures.push(...rows);
  }
  (results.machine as Record<string, unknown>).loadAverageAtEnd = os.loadavg();

  const width = Math.max(...figures.map((row) => row.benchmark.length));
  console.log(
    `\nmcpflow benchmarks — node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, load average ${os
      .loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')}\n`,
  );
  for (const row of figures)
    console.log(`${row.met ? 'PASS' : 'MISS'}  ${row.benchmark.padEnd(width)}  ${row.figure}   [target ${row.target}]`);
  results.figures = figures;
  const file = path.resolve(__dirname, '..', 'results.json');
  fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nWritten to ${path.relative(process.cwd(), file)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
