import type { BenchCase } from './case';
import { ablationV1, ablationV2 } from './cases/ablation-lines';
import { compile } from './cases/compile';
import { engineV1 } from './cases/engine-v1';
import { engineV2 } from './cases/engine-v2';
import { forEachLoop } from './cases/for-each';
import { httpV1 } from './cases/http-v1';
import { httpV2 } from './cases/http-v2';
import { mastra } from './cases/mastra';
import { memory } from './cases/memory';
import { parallelGroup } from './cases/parallel';
import { pauseAndResume } from './cases/pause';
import { scaling } from './cases/scaling';
import { sealing } from './cases/sealing';
import { tasks } from './cases/tasks';
import { tasksBullmq } from './cases/tasks-bullmq';
import { tasksPolling } from './cases/tasks-polling';
import { tasksTakeover } from './cases/tasks-takeover';
import { telemetry, telemetryProvider } from './cases/telemetry';
import { toolFace } from './cases/tool-face';
import { studio } from './cases/studio';
import { studioHistory } from './cases/studio-history';
import { stepCostCase } from './cases/step-cost';
import { usePerRequest } from './cases/use-per-request';

/** Every benchmark `npm run bench` runs, in this order. A new one is a file in cases/ and a line here. */
export const CASES: readonly BenchCase[] = [
  engineV1,
  engineV2,
  stepCostCase,
  scaling,
  mastra,
  memory,
  httpV1,
  httpV2,
  usePerRequest,
  compile,
  parallelGroup,
  forEachLoop,
  pauseAndResume,
  sealing,
  ablationV1,
  ablationV2,
  telemetry,
  telemetryProvider,
  toolFace,
  tasks,
  tasksBullmq,
  tasksTakeover,
  tasksPolling,
  studio,
  studioHistory,
];
