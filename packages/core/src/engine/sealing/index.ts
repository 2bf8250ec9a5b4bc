export {
  StateSealer,
  DEFAULT_MAX_STATE_BYTES,
  DEFAULT_STATE_TTL_SECONDS,
  type SealResult,
  type StateBinding,
  type StateSealingOptions,
} from './state-sealer';
export { SealedStateError, type SealedStateProblem } from './sealed-state-error';
export type { StateKeyMaterial } from './state-keys';
