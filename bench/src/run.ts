/**
 * npm run bench: every figure is a median over repeated runs after warm-up (min and max beside it),
 * measured side by side with its baseline in the same process. Prints a table and writes
 * bench/results.json. See BENCHMARKS.md for the method.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { compileTime } from './compile';
import { engineOverhead } from './engine';
import { forEachScaling, parallelGroup } from './flow';
import { httpThroughput } from './http';
import { againstMastra } from './mastra';
import { retainedMemory } from './memory';
import { scaling } from './scaling';
import { sealingCost } from './sealing';
import { pauseOverhead } from './pause';
import type { Stats } from './measure';

interface Row {
  benchmark: string;
  figure: string;
  target: string;
  met: boolean;
}

const fmt = (value: number, digits = 1) => value.toFixed(digits);
const range = (stats: Stats, unit: string, digits = 1) =>
  `${fmt(stats.median, digits)} ${unit} (min ${fmt(stats.min, digits)}, max ${fmt(stats.max, digits)})`;

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const wanted = (name: string) => only.length === 0 || only.includes(name);
  const rows: Row[] = [];
  const results: Record<string, unknown> = {
    machine: {
      node: process.version,
      cpus: os.cpus().length,
      cpu: os.cpus()[0]?.model,
      memoryGiB: Math.round(os.totalmem() / 2 ** 30),
      platform: `${os.platform()} ${os.release()}`,
    },
    date: new Date().toISOString(),
  };

  if (wanted('engine')) {
    const engine = await engineOverhead();
    results.engine = engine;
    rows.push({
      benchmark: '1. engine overhead (4 steps, prompts/get, in-memory)',
      figure: `workflow ${range(engine.workflow, 'µs')} / hand-written ${range(engine.baseline, 'µs')} = ${fmt(engine.ratio, 3)}`,
      target: 'ratio ≤ 1.15',
      met: engine.ratio <= 1.15,
    });
  }
  if (wanted('scaling')) {
    const rowsScaling = await scaling();
    results.scaling = rowsScaling;
    for (const outputBytes of [0, 10_000]) {
      const series = rowsScaling.filter((row) => row.outputBytes === outputBytes);
      const growth = series[series.length - 1].perStepUs / series[1].perStepUs;
      rows.push({
        benchmark: `2. scaling, ${outputBytes ? '10 kB' : 'trivial'} outputs (µs per step at 1/4/16/64 steps)`,
        figure: `${series.map((row) => fmt(row.perStepUs)).join(' / ')}; per-step cost at 64 ÷ at 4 = ${fmt(growth, 2)}`,
        target: 'linear: per-step cost at 64 steps ≤ 1.5 × at 4',
        met: growth <= 1.5,
      });
    }
  }
  if (wanted('mastra')) {
    const mastra = await againstMastra();
    results.mastra = mastra;
    rows.push({
      benchmark: `3. against Mastra ${mastra.mastraVersion} (4 trivial steps)`,
      figure: `mcpflow ${range(mastra.mcpflow, 'µs')} / Mastra ${range(mastra.mastra, 'µs')} = ${fmt(mastra.ratio, 3)}`,
      target: 'ratio ≤ 0.25',
      met: mastra.ratio <= 0.25,
    });
  }
  if (wanted('memory')) {
    const memory = await retainedMemory();
    results.memory = memory;
    rows.push({
      benchmark: '5. heap retained per execution (10,000 runs, after GC)',
      figure: `${fmt(memory.bytesPerRun)} bytes`,
      target: '< 1024 bytes',
      met: memory.bytesPerRun < 1024,
    });
  }
  if (wanted('http')) {
    const http = await httpThroughput();
    results.http = http;
    rows.push({
      benchmark: '6. Streamable HTTP, 16 concurrent clients',
      figure: `workflow ${range(http.workflow, 'req/s', 0)} / static prompt ${range(http.static, 'req/s', 0)} = ${fmt(http.ratio, 3)}`,
      target: 'ratio ≥ 0.8',
      met: http.ratio >= 0.8,
    });
  }
  if (wanted('pause')) {
    const pause = await pauseOverhead();
    results.pause = pause;
    rows.push({
      benchmark: '7. 4 steps paused once and resumed (2026-07-28, in memory)',
      figure: `paused ${range(pause.paused, 'µs')} / unpaused + one round trip ${range(pause.unpaused, 'µs')} = ${fmt(pause.ratio, 3)} (the round trip alone ${range(pause.roundTrip, 'µs')})`,
      target: 'ratio ≤ 1.3',
      met: pause.ratio <= 1.3,
    });
  }
  if (wanted('sealing')) {
    const sealing = sealingCost();
    results.sealing = sealing;
    for (const row of sealing) {
      rows.push({
        benchmark: `8. seal + open a paused run's state, ${fmt(row.bindingsBytes / 1000, 0)} kB of bindings (${row.sealedChars} chars sealed)`,
        figure: `seal ${range(row.seal, 'µs')}, open ${range(row.open, 'µs')}`,
        target: 'reported (µs per round)',
        met: true,
      });
    }
  }
  if (wanted('compile')) {
    const compile = compileTime();
    results.compile = compile;
    for (const size of compile) {
      rows.push({
        benchmark: `4. tsc --noEmit, ${size.classes} classes × 5 steps`,
        figure: `with ${range(size.checked, 'ms', 0)} / without ${range(size.plain, 'ms', 0)} = ${fmt(size.ratio, 3)}`,
        target: 'ratio ≤ 1.10',
        met: size.ratio <= 1.1,
      });
    }
    if (compile.length === 2) {
      const scale = compile[1].checked.median / compile[0].checked.median;
      rows.push({
        benchmark: '4. tsc with the transformer, 400 classes ÷ 200 classes',
        figure: fmt(scale, 2),
        target: 'about 2 (linear)',
        met: scale <= 2.3,
      });
    }
  }

  if (wanted('parallel')) {
    const parallel = await parallelGroup();
    results.parallel = parallel;
    rows.push({
      benchmark: '7. parallel group of 4 tools × 20 ms vs the same steps in sequence',
      figure: `parallel ${range(parallel.parallel, 'µs', 0)} / sequential ${range(parallel.sequential, 'µs', 0)} = ${fmt(parallel.ratio, 3)}`,
      target: 'ratio ≈ 0.25 (≤ 0.35)',
      met: parallel.ratio <= 0.35,
    });
  }
  if (wanted('forEach')) {
    const loops = await forEachScaling();
    results.forEach = loops;
    const [, hundred, thousand] = loops;
    // Per element at 1,000 ÷ at 100: both are mostly per-element work (at 10, the request's fixed cost dominates).
    const growth = thousand.perItemUs / hundred.perItemUs;
    rows.push({
      benchmark: '8. forEach, trivial tool (µs per element at 10/100/1,000 elements)',
      figure: `${loops.map((row) => fmt(row.perItemUs)).join(' / ')} (per request ${loops.map((row) => fmt(row.perRequestUs, 0)).join(' / ')} µs); per element at 1,000 ÷ at 100 = ${fmt(growth, 2)}`,
      target: 'linear: ≤ 1.5',
      met: growth <= 1.5,
    });
  }

  const width = Math.max(...rows.map((row) => row.benchmark.length));
  console.log(`\nmcpflow benchmarks — node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}\n`);
  for (const row of rows)
    console.log(`${row.met ? 'PASS' : 'MISS'}  ${row.benchmark.padEnd(width)}  ${row.figure}   [target ${row.target}]`);
  results.rows = rows;
  const file = path.resolve(__dirname, '..', 'results.json');
  fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nWritten to ${path.relative(process.cwd(), file)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
