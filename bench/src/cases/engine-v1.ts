import { engineOverheadCase } from '../engine-overhead';
import { baselineServer, inMemoryClient, workflowServer } from '../fixtures/servers-v1';

/** The engine's overhead on SDK 1.x: `@mcpflow/core` against a hand-written 1.x `registerPrompt`. */
export const engineV1 = engineOverheadCase('engine-v1', 'SDK 1.x', async () => ({
  workflow: await inMemoryClient(workflowServer(4)),
  baseline: await inMemoryClient(baselineServer(4)),
}));
