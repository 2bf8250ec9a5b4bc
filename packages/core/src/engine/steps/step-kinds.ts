import { resourceStep } from './resource/resource-step';
import type { StepKind } from './step-kind';
import { toolStep } from './tool/tool-step';

/**
 * Every kind of step the engine runs, one for each kind of action in the model's `STEP_ACTIONS`.
 * A new kind is a folder and a line here (see CONTRIBUTING.md).
 *
 * @example
 * ```ts
 * STEP_KINDS.map((kind) => kind.kind); // ['tool', 'resource']
 * ```
 */
export const STEP_KINDS: readonly StepKind[] = [toolStep, resourceStep];
