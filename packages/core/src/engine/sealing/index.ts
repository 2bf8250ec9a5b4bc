export {
  StateSealer,
  DEFAULT_MAX_STATE_BYTES,
  DEFAULT_STATE_TTL_SECONDS,
  type OpenedState,
  type SealRefusal,
  type SealResult,
  type StateBinding,
  type StateSealingOptions,
} from './state-sealer';
export { SealedStateError, type SealedStateProblem } from './sealed-state-error';
export { deriveStateKeys, type StateKeyMaterial } from './state-keys';
export { type PausedRound, type ReplayGuard, type ReplayVerdict } from './replay-guard';
export { ReplayGuardError, type ReplayGuardProblem } from './replay-guard-error';
