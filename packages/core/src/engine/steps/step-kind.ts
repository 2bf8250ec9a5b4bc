import type { Host } from '../host';
import type { PlannedStep } from '../plan/plan-workflow';
import type { ExecutionScope } from '../plan/resolve-source';
import type { StepContext } from './step-context';
import type { StepOutcome } from './step-outcome';

/**
 * How the engine runs one kind of step action (`StepAction` in the model): what it does, and how
 * the plan, the trace and a handoff describe it. Each kind is a folder under `engine/steps/`,
 * listed once in `STEP_KINDS`; the executor only calls these.
 *
 * @example
 * ```ts
 * export const resourceStep: StepKind<ResourceAction> = { kind: 'resource', run, planLine, handoffDetails };
 * ```
 */
export interface StepKind<Action extends { readonly kind: string } = { readonly kind: string }> {
  /** The `kind` of the actions it runs. */
  readonly kind: Action['kind'];
  /**
   * Runs the action, after the step's guidance, URI variables and embedded resources: announces
   * the call in the trace, performs it, and values its result. `variables` holds the step's
   * filled URI variables (empty when it has none); `shown`, when present, the same with the
   * client's own values marked (`Redactor.client`), for a URI the trace shows.
   */
  run(
    step: PlannedStep,
    action: Action,
    context: StepContext,
    variables: Readonly<Record<string, string>>,
    shown?: Readonly<Record<string, string>>,
  ): Promise<StepOutcome>;
  /**
   * The step's line in the plan: `analyze: call tool analyze_code — Analyze source code`. It may
   * read the step and the host's tools only: the plan message is kept until `Host.tools` changes.
   */
  planLine(step: PlannedStep, action: Action, host: Host): string;
  /**
   * After a handoff, what the LLM needs to do the step itself (inputs known and missing); may be
   * empty. `client` marks the client's own values it quotes (`Redactor.client`).
   */
  handoffDetails(step: PlannedStep, action: Action, scope: ExecutionScope, host: Host, client: (text: string) => string): string;
}
