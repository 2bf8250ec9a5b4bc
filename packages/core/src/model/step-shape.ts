import { isAskSource } from './data-source';
import { stepActionKind } from './read-step-action';
import type { StepModel, WorkflowModel } from './workflow-model';

/**
 * The key of the question an `askUser`/`askModel` in a step's argument puts: unique in the
 * workflow, stable across deployments (a paused run's answers are kept under it).
 */
export function argumentAskKey(step: string, argument: string): string {
  return `${step}/${argument}`;
}

/** The key of the question an ask filling a step's URI variable puts (see `argumentAskKey`). */
export function fillAskKey(step: string, variable: string): string {
  return `${step}/{${variable}}`;
}

/** The keys of the questions a step asks before it runs, in the order it asks them. */
export function stepAskKeys(step: Pick<StepModel, 'name' | 'args' | 'fills'>): string[] {
  return [
    ...step.args.filter(({ source }) => isAskSource(source)).map(({ name }) => argumentAskKey(step.name, name)),
    ...step.fills.filter(({ source }) => isAskSource(source)).map(({ variable }) => fillAskKey(step.name, variable)),
  ];
}

/**
 * What of a step a paused run's state refers to, as one canonical string: its name, its action's
 * kind and tool or resource, its binding and its questions' keys. Two versions of a workflow whose
 * steps up to a run's position have the same shapes can resume each other's states; guidance,
 * descriptions, timeouts, retries and later steps are not in it (DESIGN §2.16). Sealing, resume and
 * the transformer's lock check (`mcpflow.lock.json`) all compare these, so they never disagree.
 *
 * @example
 * ```ts
 * stepShape(model.steps[0]); // '["pages","tool","list_pages","pages",[]]'
 * ```
 */
export function stepShape(step: Pick<StepModel, 'name' | 'action' | 'binding' | 'args' | 'fills'>): string {
  const kind = step.action && stepActionKind(step.action);
  const target = step.action && (kind?.tool?.(step.action) ?? kind?.uri?.(step.action));
  return JSON.stringify([step.name, step.action?.kind ?? null, target ?? null, step.binding ?? null, stepAskKeys(step)]);
}

/** The shape of each of a workflow's steps, in declaration order (see `stepShape`). */
export function workflowShapes(model: Pick<WorkflowModel, 'steps'>): string[] {
  return model.steps.map(stepShape);
}
