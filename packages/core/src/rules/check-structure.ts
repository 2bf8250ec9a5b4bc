import { stepActionKind, type StepModel, type WorkflowModel } from '../model';
import {
  DuplicateBindingError,
  DuplicateStepNameError,
  EmptyWorkflowError,
  InvalidStepActionError,
  InvalidStepOptionError,
  MisplacedDecoratorError,
} from './errors/rule-errors';
import type { WorkflowDefinitionError } from './errors/workflow-definition-error';

/**
 * The shape of the declaration: each step names exactly one action (one of `STEP_ACTIONS`), in
 * range; step and binding names are unique; `@Bind`/`@TemplateBinding` sit on `@Step` properties;
 * step options are in range; and there is at least one step.
 */
export function checkStructure(workflow: WorkflowModel): WorkflowDefinitionError[] {
  const errors: WorkflowDefinitionError[] = [];
  if (workflow.steps.length === 0) errors.push(new EmptyWorkflowError(workflow.name, workflow.className));
  for (const stray of workflow.strayDecorators) errors.push(new MisplacedDecoratorError(workflow.name, stray.property, stray.decorator));

  const stepNames = new Set<string>();
  const boundBy = new Map<string, string>();
  for (const step of workflow.steps) {
    errors.push(...checkAction(workflow.name, step));
    if (stepNames.has(step.name)) errors.push(new DuplicateStepNameError(workflow.name, step.name, { kind: 'stepName', step: step.name }));
    stepNames.add(step.name);
    for (const extra of step.extraBindings) {
      errors.push(
        new DuplicateBindingError(workflow.name, step.name, extra, undefined, { kind: 'binding', step: step.name, binding: extra }),
      );
    }
    if (step.binding !== undefined) {
      const first = boundBy.get(step.binding);
      if (first !== undefined) {
        errors.push(
          new DuplicateBindingError(workflow.name, step.name, step.binding, first, {
            kind: 'binding',
            step: step.name,
            binding: step.binding,
          }),
        );
      } else {
        boundBy.set(step.binding, step.name);
      }
    }
    errors.push(...checkStepOptions(workflow.name, step));
  }
  return errors;
}

/** Exactly one action, and a value its kind accepts. */
function checkAction(workflow: string, step: StepModel): WorkflowDefinitionError[] {
  if (step.action === undefined || step.extraActions.length > 0)
    return [new InvalidStepActionError(workflow, step.name, step.extraActions.length > 0)];
  const kind = stepActionKind(step.action);
  const problem = kind.problem?.(step.action);
  return problem ? [new InvalidStepOptionError(workflow, step.name, kind.option, problem.problem, problem.fix)] : [];
}

function checkStepOptions(workflow: string, step: StepModel): WorkflowDefinitionError[] {
  const errors: WorkflowDefinitionError[] = [];
  if (step.timeoutMs !== undefined && !(Number.isFinite(step.timeoutMs) && step.timeoutMs > 0)) {
    errors.push(
      new InvalidStepOptionError(
        workflow,
        step.name,
        'timeoutMs',
        `is ${step.timeoutMs}; it must be a positive number of milliseconds.`,
        `set timeoutMs to a number above 0, or remove it.`,
      ),
    );
  }
  if (step.retry !== undefined) {
    const { attempts, backoffMs } = step.retry;
    if (!Number.isInteger(attempts) || attempts < 1) {
      errors.push(
        new InvalidStepOptionError(
          workflow,
          step.name,
          'retry.attempts',
          `is ${attempts}; it counts every try, the first included.`,
          `set retry.attempts to a whole number of at least 1.`,
        ),
      );
    }
    if (backoffMs !== undefined && !(Number.isFinite(backoffMs) && backoffMs >= 0)) {
      errors.push(
        new InvalidStepOptionError(
          workflow,
          step.name,
          'retry.backoffMs',
          `is ${backoffMs}; it must be 0 or more milliseconds.`,
          `set retry.backoffMs to 0 or more, or remove it.`,
        ),
      );
    }
  }
  return errors;
}
