import type { StepKind } from './step-kind';
import { STEP_KINDS } from './step-kinds';

const kinds = new Map(STEP_KINDS.map((kind) => [kind.kind, kind]));

/**
 * The engine's kind for an action: what runs it and describes it in the plan and at a handoff.
 *
 * @example
 * ```ts
 * stepKindOf(step.action).run(step, step.action, context, variables);
 * ```
 */
export function stepKindOf(action: { readonly kind: string }): StepKind {
  const kind = kinds.get(action.kind);
  if (!kind) throw new Error(`the engine has no step kind '${action.kind}' to run; list one in STEP_KINDS`);
  return kind;
}
