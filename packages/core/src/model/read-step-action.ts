import type { StepActionKind } from './step-action-kind';
import { STEP_ACTIONS, type StepAction } from './step-actions';
import type { StepModel } from './workflow-model';

/** A step's action (the first its options name) and any further ones (always an error). */
export interface ReadActions {
  readonly action?: StepAction;
  readonly extraActions: StepAction[];
}

/**
 * Reads the actions `@Step` options name, in `STEP_ACTIONS` order: each option set gives one, its
 * value a literal or a definition (read by the field the kind names).
 *
 * @example
 * ```ts
 * readStepActions({ tool: getMyProgress }); // { action: { kind: 'tool', tool: 'get_my_progress' }, extraActions: [] }
 * ```
 */
export function readStepActions(options: object): ReadActions {
  const actions: StepAction[] = [];
  for (const kind of STEP_ACTIONS) {
    const value: unknown = (options as Record<string, unknown>)[kind.option];
    if (value === undefined) continue;
    const named =
      kind.definition && typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[kind.definition.field] : value;
    actions.push(kind.read(named) as StepAction);
  }
  return { action: actions[0], extraActions: actions.slice(1) };
}

/** The table entry of an action's kind. */
export function stepActionKind(action: StepAction): StepActionKind<StepAction> {
  const kind = STEP_ACTIONS.find((candidate) => candidate.kind === action.kind);
  if (!kind) throw new Error(`no step action of kind '${action.kind}' is listed in STEP_ACTIONS`);
  return kind as StepActionKind<StepAction>;
}

/** The tool a step calls, when its action calls one. */
export function stepTool(step: Pick<StepModel, 'action'>): string | undefined {
  return step.action && stepActionKind(step.action).tool?.(step.action);
}

/** The URI template a step's action reads, when it reads one. */
export function stepActionUri(step: Pick<StepModel, 'action'>): string | undefined {
  return step.action && stepActionKind(step.action).uri?.(step.action);
}
