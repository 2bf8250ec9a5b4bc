import type { StepAction } from '../../model';
import { resourceStep } from './resource/resource-step';
import type { StepKind } from './step-kind';
import { toolStep } from './tool/tool-step';

/**
 * Every kind of step the engine runs, one per kind of `STEP_ACTIONS` in the model. A new kind is a
 * folder and a line here (see CONTRIBUTING.md).
 *
 * @example
 * ```ts
 * STEP_KINDS.map((kind) => kind.kind); // ['tool', 'resource']
 * ```
 */
export const STEP_KINDS: readonly StepKind[] = [toolStep, resourceStep];

/** The engine's kind for a (validated) step's action. */
export function stepKindOf(action: StepAction): StepKind {
  const kind = STEP_KINDS.find((candidate) => candidate.kind === action.kind);
  if (!kind) throw new Error(`the engine has no step kind '${action.kind}' to run; list one in STEP_KINDS`);
  return kind;
}
