import * as path from 'node:path';
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { inMemoryClient, workflowServer } from './servers';
import { sideBySide, type Stats } from './measure';

const MASTRA_DIR = path.resolve(__dirname, '..', 'mastra');

/** Installs @mastra/core into bench/mastra on first use: it is never a dependency of the project. */
function loadMastra(): { createWorkflow: Function; createStep: Function; z: typeof import('zod') } {
  if (!fs.existsSync(path.join(MASTRA_DIR, 'node_modules', '@mastra', 'core'))) {
    console.error('Installing @mastra/core into bench/mastra (first run only)…');
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: MASTRA_DIR, stdio: 'inherit' });
  }
  const load = createRequire(path.join(MASTRA_DIR, 'package.json'));
  return {
    ...(load('@mastra/core/workflows') as { createWorkflow: Function; createStep: Function }),
    z: load('zod') as typeof import('zod'),
  };
}

/** 3. The same 4 trivial steps as a Mastra workflow (createWorkflow/createStep, run.start) against mcpflow's prompts/get. */
export async function againstMastra(): Promise<{ mcpflow: Stats; mastra: Stats; ratio: number; mastraVersion: string }> {
  const { createWorkflow, createStep, z } = loadMastra();
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
    const run = await workflow.createRunAsync();
    const result = await run.start({ inputData: { value: 'hello' } });
    if (result.status !== 'success') throw new Error(`Mastra run ended ${result.status}`);
  };
  const client = await inMemoryClient(workflowServer(4));
  const request = { name: 'chain', arguments: { input: 'hello' } };
  const result = await sideBySide({ mcpflow: () => client.getPrompt(request), mastra: runMastra }, { warmup: 500, rounds: 20, batch: 200 });
  await client.close();
  const mastraVersion = (
    JSON.parse(fs.readFileSync(path.join(MASTRA_DIR, 'node_modules', '@mastra', 'core', 'package.json'), 'utf8')) as { version: string }
  ).version;
  return { mcpflow: result.mcpflow, mastra: result.mastra, ratio: result.mcpflow.median / result.mastra.median, mastraVersion };
}
