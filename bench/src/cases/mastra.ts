import * as path from 'node:path';
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import type { BenchCase } from '../case';
import { inMemoryClient, workflowServer } from '../fixtures/servers-v1';
import { pairedRatio, sideBySide } from '../measure';
import { fmt, range, ratioFigure } from '../report';
import { sized } from '../run-options';

const MASTRA_DIR = path.resolve(__dirname, '..', '..', 'mastra');

interface MastraWorkflows {
  createWorkflow: Function;
  createStep: Function;
}

function installedVersion(): string | undefined {
  const manifest = path.join(MASTRA_DIR, 'node_modules', '@mastra', 'core', 'package.json');
  return fs.existsSync(manifest) ? (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }).version : undefined;
}

/**
 * Installs @mastra/core into bench/mastra on first use (or when the pinned version changed): it is
 * never a dependency of the project, so the repo's `npm ci` is untouched. Mastra 1.x declares
 * node >= 22.13 yet runs on node 20, hence `--engine-strict=false` (in case a user's npmrc sets it).
 */
function loadMastra(): MastraWorkflows & { z: typeof import('zod'); version: string } {
  const wanted = (JSON.parse(fs.readFileSync(path.join(MASTRA_DIR, 'package.json'), 'utf8')) as { dependencies: Record<string, string> })
    .dependencies['@mastra/core'];
  if (installedVersion() !== wanted) {
    console.error(`Installing @mastra/core ${wanted} into bench/mastra…`);
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', '--engine-strict=false', '--no-package-lock'], {
      cwd: MASTRA_DIR,
      stdio: 'inherit',
    });
  }
  const load = createRequire(path.join(MASTRA_DIR, 'package.json'));
  return {
    ...(load('@mastra/core/workflows') as MastraWorkflows),
    z: load('zod') as typeof import('zod'),
    version: installedVersion() ?? wanted,
  };
}

/** The same 4 trivial steps as a Mastra workflow (createWorkflow/createStep, createRun + start) against mcpflow's prompts/get on SDK 1.x. */
export const mastra: BenchCase = {
  name: 'mastra',
  async run(options) {
    const { createWorkflow, createStep, z, version } = loadMastra();
    const schema = z.object({ value: z.string() });
    let workflow = createWorkflow({ id: 'chain', inputSchema: schema, outputSchema: schema });
    for (let index = 0; index < 4; index += 1) {
      workflow = workflow.then(
        createStep({
          id: `step_${index}`,
          inputSchema: schema,
          outputSchema: schema,
          execute: async ({ inputData }: { inputData: { value: string } }) => ({ value: `${inputData.value}>${index}` }),
        }),
      );
    }
    workflow.commit();
    const runMastra = async () => {
      const run = await workflow.createRun();
      const result = await run.start({ inputData: { value: 'hello' } });
      if (result.status !== 'success' || result.result.value !== 'hello>0>1>2>3') throw new Error(`Mastra run ended ${result.status}`);
    };
    const client = await inMemoryClient(workflowServer(4));
    const request = { name: 'chain', arguments: { input: 'hello' } };
    const measured = await sideBySide(
      { mcpflow: () => client.getPrompt(request), mastra: runMastra },
      sized(options, { warmup: 500, rounds: 20, batch: 200 }),
    );
    await client.close();
    const paired = pairedRatio(measured.mcpflow, measured.mastra);
    const cpuPaired = pairedRatio(measured.mcpflow, measured.mastra, 'cpu');
    return {
      result: {
        mcpflow: measured.mcpflow,
        mastra: measured.mastra,
        ratio: measured.mcpflow.median / measured.mastra.median,
        paired,
        cpuPaired,
        mastraVersion: version,
      },
      figures: [
        {
          benchmark: `3. against Mastra ${version} (4 trivial steps, interleaved in one process)`,
          figure: `${ratioFigure('mcpflow', measured.mcpflow, 'Mastra', measured.mastra)}; paired by round ${range(paired, '', 3)}; by CPU time ${fmt(cpuPaired.median, 3)}; GC pauses inside the batches: mcpflow ${fmt(measured.mcpflow.gcUsPerCall)} µs/call, Mastra ${fmt(measured.mastra.gcUsPerCall)} µs/call`,
          target: 'paired ratio ≤ 0.20',
          met: paired.median <= 0.2,
        },
      ],
    };
  },
};
