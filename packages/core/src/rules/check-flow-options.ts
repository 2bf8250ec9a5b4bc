import type { Condition, StepModel, WorkflowModel } from '../model';
import { InvalidStepOptionError } from './errors/rule-errors';
import type { WorkflowDefinitionError } from './errors/workflow-definition-error';

/** The flow options of each step are in range: `concurrency`/`maxItems` belong to `forEach`, `transform` is a function, `when` is a condition. */
export function checkFlowOptions(workflow: WorkflowModel): WorkflowDefinitionError[] {
  return workflow.steps.flatMap((step) => checkStep(workflow.name, step));
}

function checkStep(workflow: string, step: StepModel): WorkflowDefinitionError[] {
  const errors: WorkflowDefinitionError[] = [];
  const invalid = (option: string, problem: string, fix: string) =>
    errors.push(new InvalidStepOptionError(workflow, step.name, option, problem, fix));
  for (const option of ['concurrency', 'maxItems'] as const) {
    const value = step[option];
    if (value === undefined) continue;
    if (step.forEach === undefined)
      invalid(
        option,
        `only applies to a forEach step, and this step has no forEach.`,
        `add forEach: fromStep('<array binding>'), or remove ${option}.`,
      );
    else if (!Number.isInteger(value) || value < 1)
      invalid(option, `is ${value}; it must be a whole number of at least 1.`, `set ${option} to 1 or more, or remove it.`);
  }
  if (step.transform !== undefined && typeof step.transform !== 'function') {
    invalid(
      'transform',
      `is ${typeof step.transform}; it must be a function from the step's value to the value to bind.`,
      `write transform: (value) => …, or remove it.`,
    );
  }
  if (step.when !== undefined) {
    const problem = conditionProblem(step.when);
    if (problem) invalid('when', problem, `build the condition with equals(), oneOf(), present() and not() from @mcpflow/decorators.`);
  }
  return errors;
}

/** Why a `when` value is not a condition mcpflow can evaluate, if it is not (it may come from untyped code). */
function conditionProblem(condition: Condition | undefined): string | undefined {
  if (condition?.kind === 'not') return conditionProblem(condition.condition);
  if (condition?.kind === 'oneOf')
    return Array.isArray(condition.values) && condition.values.length > 0 ? undefined : `uses oneOf() with no values, so it is never true.`;
  if (condition?.kind === 'equals' || condition?.kind === 'present') return undefined;
  return `is not a condition.`;
}
