import type { StepActionKind } from '../../../packages/core/src/model/step-action-kind';

/** A step that waits: the test-only third kind of action (CONTRIBUTING.md). */
export interface DelayAction {
  readonly kind: 'delay';
  readonly ms: number;
}

/** `@Step({ delay: 250 })`: how long to wait, in milliseconds. */
export const delayAction: StepActionKind<DelayAction> = {
  kind: 'delay',
  option: 'delay',
  literal: 'number',
  read: (ms) => ({ kind: 'delay', ms: ms as number }),
  problem: (action) =>
    typeof action.ms === 'number' && Number.isFinite(action.ms) && action.ms >= 0
      ? undefined
      : {
          problem: `is ${String(action.ms)}; it must be 0 or more milliseconds.`,
          fix: 'set delay to a number of milliseconds, 0 or more.',
        },
};
