import type { StepModel } from '../../model';
import type { Host } from '../host';
import type { PlannedStep } from '../plan/plan-workflow';
import type { ExecutionScope } from '../plan/resolve-source';
import type { StepContext } from './step-context';
import type { StepOutcome } from './step-outcome';

/**
 * What a kind of step does: its action, and how the plan and a handoff describe it. Each kind is a
 * folder under `engine/steps/`, listed once in `step-kinds.ts`; the executor only calls these.
 *
 * @example
 * ```ts
 * export const resourceStep: StepKind = { name: 'resource', appliesTo: (step) => step.resource !== undefined, run, summary, handoffDetails };
 * ```
 */
export interface StepKind {
  readonly name: string;
  /** Whether a step of the model is of this kind. */
  appliesTo(step: StepModel): boolean;
  /**
   * Runs the step's action, after its guidance, template variables and embedded resources.
   * `variables` holds the step's resolved URI variables (empty when it has none).
   */
  run(step: PlannedStep, context: StepContext, variables: Readonly<Record<string, string>>): Promise<StepOutcome>;
  /** The step's line in the plan: `analyze: call tool analyze_code — Analyze source code`. */
  summary(step: PlannedStep, host: Host): string;
  /** After a handoff, what the LLM needs to do the step itself (inputs known and missing); may be empty. */
  handoffDetails(step: PlannedStep, scope: ExecutionScope, host: Host): string;
}
