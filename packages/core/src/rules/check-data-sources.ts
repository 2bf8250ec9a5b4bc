import { parseFieldPath, type DataSource, type StepModel, type WorkflowModel } from '../model';
import { BindingUsedBeforeBoundError } from './errors/binding-used-before-bound-error';
import { InvalidFieldPathError } from './errors/invalid-field-path-error';
import { StepNameUsedAsBindingError } from './errors/step-name-used-as-binding-error';
import { UndeclaredPromptArgumentError } from './errors/undeclared-prompt-argument-error';
import { UnknownBindingError } from './errors/unknown-binding-error';
import type { IssueTarget, SourcePart, WorkflowDefinitionError } from './errors/workflow-definition-error';

/**
 * Every data source (tool arguments and template bindings) must read a declared prompt argument or
 * a binding of an earlier step, and a field path must be well formed.
 */
export function checkDataSources(workflow: WorkflowModel): WorkflowDefinitionError[] {
  const errors: WorkflowDefinitionError[] = [];
  const declared = workflow.arguments.map((argument) => argument.name);
  const boundBy = new Map<string, string>();
  for (const step of workflow.steps) if (step.binding !== undefined && !boundBy.has(step.binding)) boundBy.set(step.binding, step.name);
  const stepsByName = new Map(workflow.steps.map((step) => [step.name, step] as const));

  const available: string[] = [];
  for (const step of workflow.steps) {
    const check = (source: DataSource, target: (part: SourcePart) => IssueTarget): void => {
      const error = checkSource(workflow, step, source, target, { declared, available, boundBy, stepsByName });
      if (error) errors.push(error);
    };
    for (const { name, source } of step.args) {
      check(source, (part) => ({ kind: 'argSource', step: step.name, arg: name, part }));
    }
    for (const { variable, source } of step.templateBindings) {
      check(source, (part) => ({ kind: 'templateSource', step: step.name, variable, part }));
    }
    if (step.binding !== undefined) available.push(step.binding);
  }
  return errors;
}

interface Scope {
  readonly declared: readonly string[];
  readonly available: readonly string[];
  readonly boundBy: ReadonlyMap<string, string>;
  readonly stepsByName: ReadonlyMap<string, StepModel>;
}

function checkSource(
  workflow: WorkflowModel,
  step: StepModel,
  source: DataSource,
  target: (part: SourcePart) => IssueTarget,
  scope: Scope,
): WorkflowDefinitionError | undefined {
  if (source.kind === 'promptArg') {
    return scope.declared.includes(source.name)
      ? undefined
      : new UndeclaredPromptArgumentError(workflow.name, step.name, source.name, scope.declared, target('name'));
  }
  if (source.kind === 'constant') return undefined;
  const { binding } = source;
  if (!scope.available.includes(binding)) {
    const laterStep = scope.boundBy.get(binding);
    if (laterStep !== undefined) return new BindingUsedBeforeBoundError(workflow.name, step.name, binding, laterStep, target('binding'));
    const namedStep = scope.stepsByName.get(binding);
    if (namedStep !== undefined) return new StepNameUsedAsBindingError(workflow.name, step.name, binding, namedStep.binding, target('binding'));
    return new UnknownBindingError(workflow.name, step.name, binding, scope.available, target('binding'));
  }
  if (source.kind === 'field' && parseFieldPath(source.path) === undefined) {
    return new InvalidFieldPathError(workflow.name, step.name, source.path, target('path'));
  }
  return undefined;
}
