import { engineOverheadCase } from '../engine-overhead';
import { baselineServerV2, inMemoryClientV2, workflowServerV2 } from '../fixtures/servers-v2';

/** The engine's overhead on SDK 2.x: `@mcpflow/core/v2` against a hand-written 2.x `registerPrompt`, each through the 2.x client. */
export const engineV2 = engineOverheadCase('engine-v2', 'SDK 2.x', async () => ({
  workflow: await inMemoryClientV2(workflowServerV2(4)),
  baseline: await inMemoryClientV2(baselineServerV2(4)),
}));
