import { ablationCase } from './ablation';
import { baselineServer, inMemoryClient, workflowServer } from '../fixtures/servers-v1';
import { baselineServerV2, inMemoryClientV2, workflowServerV2 } from '../fixtures/servers-v2';

/** What each safeguard costs on SDK 1.x: the engine case with it off, against the hand-written prompt. */
export const ablationV1 = ablationCase('ablation-v1', 'v1', 'SDK 1.x', {
  workflow: (options, sensitiveInput) => inMemoryClient(workflowServer(4, 0, options, sensitiveInput)),
  baseline: () => inMemoryClient(baselineServer(4)),
});

/** What each safeguard costs on SDK 2.x. */
export const ablationV2 = ablationCase('ablation-v2', 'v2', 'SDK 2.x', {
  workflow: (options, sensitiveInput) => inMemoryClientV2(workflowServerV2(4, 0, options, sensitiveInput)),
  baseline: () => inMemoryClientV2(baselineServerV2(4)),
});
