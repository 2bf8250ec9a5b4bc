import type { StepModel } from '../../model';
import { resourceStep } from './resource/resource-step';
import type { StepKind } from './step-kind';
import { toolStep } from './tool/tool-step';

/**
 * Every kind of step, in the order a step model is matched against them. A new kind is a folder and a line here.
 *
 * @example
 * ```ts
 * STEP_KINDS.map((kind) => kind.name); // ['tool', 'resource']
 * ```
 */
const STEP_KINDS: readonly StepKind[] = [toolStep, resourceStep];

/** The kind of a (validated) step. */
export function stepKindOf(step: StepModel): StepKind {
  const kind = STEP_KINDS.find((candidate) => candidate.appliesTo(step));
  if (!kind) throw new Error(`step '${step.name}' has no action the engine can run; give it exactly one of tool and resource`);
  return kind;
}
