import { baselineServer, inMemoryClient, workflowServer } from './servers';
import { sideBySide, type Stats } from './measure';

export interface EngineResult {
  workflow: Stats;
  baseline: Stats;
  ratio: number;
}

/** 1. prompts/get of a 4-step workflow against the hand-written registerPrompt equivalent, same client, same transport. */
export async function engineOverhead(): Promise<EngineResult> {
  const workflow = await inMemoryClient(workflowServer(4));
  const baseline = await inMemoryClient(baselineServer(4));
  const request = { name: 'chain', arguments: { input: 'hello' } };
  // Both must answer with the same messages, or the comparison is not fair.
  const [a, b] = await Promise.all([workflow.getPrompt(request), baseline.getPrompt(request)]);
  if (JSON.stringify(a.messages) !== JSON.stringify(b.messages))
    throw new Error('the workflow and the baseline do not build the same trace');
  const result = await sideBySide(
    { workflow: () => workflow.getPrompt(request), baseline: () => baseline.getPrompt(request) },
    { warmup: 2000, rounds: 30, batch: 500 },
  );
  await Promise.all([workflow.close(), baseline.close()]);
  return { workflow: result.workflow, baseline: result.baseline, ratio: result.workflow.median / result.baseline.median };
}
