import { parseFieldPath, type DataSource, type StepModel, type WorkflowModel } from '../model';
import { BindingUsedBeforeBoundError } from './errors/binding-used-before-bound-error';
import { InvalidFieldPathError } from './errors/invalid-field-path-error';
import { StepNameUsedAsBindingError } from './errors/step-name-used-as-binding-error';
import { UndeclaredPromptArgumentError } from './errors/undeclared-prompt-argument-error';
import { UnknownBindingError } from './errors/unknown-binding-error';
import type { SourceIssueTarget, SourcePart, WorkflowDefinitionError } from './errors/workflow-definition-error';
import { checkAsk } from './check-asks';

/**
 * Every data source (tool arguments and template bindings, and the sources an ask builds its
 * question from) must read a declared prompt argument or a binding of an earlier step, and a field
 * path must be well formed.
 */
export function checkDataSources(workflow: WorkflowModel): WorkflowDefinitionError[] {
  const errors: WorkflowDefinitionError[] = [];
  const declared = workflow.arguments.map((argument) => argument.name);
  const boundBy = new Map<string, string>();
  for (const step of workflow.steps) if (step.binding !== undefined && !boundBy.has(step.binding)) boundBy.set(step.binding, step.name);
  const stepsByName = new Map(workflow.steps.map((step) => [step.name, step] as const));

  const available: string[] = [];
  for (const step of workflow.steps) {
    const scope: SourceScope = { workflow, step, declared, available, boundBy, stepsByName };
    for (const { name, source } of step.args) {
      errors.push(...checkSource(source, (part) => ({ kind: 'argSource', step: step.name, arg: name, part }), scope));
    }
    for (const { variable, source } of step.templateBindings) {
      errors.push(...checkSource(source, (part) => ({ kind: 'templateSource', step: step.name, variable, part }), scope));
    }
    if (step.binding !== undefined) available.push(step.binding);
  }
  return errors;
}

/** What a data source of one step may read, and where its errors point. */
export interface SourceScope {
  readonly workflow: WorkflowModel;
  readonly step: StepModel;
  readonly declared: readonly string[];
  readonly available: readonly string[];
  readonly boundBy: ReadonlyMap<string, string>;
  readonly stepsByName: ReadonlyMap<string, StepModel>;
}

/** Where an error about one data source points, by the part of the call it is about. */
export type SourceTarget = (part: SourcePart) => SourceIssueTarget;

/** The errors of one data source (and, for an ask, of the sources it reads). */
export function checkSource(source: DataSource, target: SourceTarget, scope: SourceScope): WorkflowDefinitionError[] {
  const { workflow, step } = scope;
  switch (source.kind) {
    case 'promptArg':
      return scope.declared.includes(source.name)
        ? []
        : [new UndeclaredPromptArgumentError(workflow.name, step.name, source.name, scope.declared, target('name'))];
    case 'constant':
      return [];
    case 'askUser':
    case 'askModel':
      return checkAsk(source, target, scope);
    case 'fromStep':
    case 'field': {
      const { binding } = source;
      if (!scope.available.includes(binding)) {
        const laterStep = scope.boundBy.get(binding);
        if (laterStep !== undefined) return [new BindingUsedBeforeBoundError(workflow.name, step.name, binding, laterStep, target('binding'))];
        const namedStep = scope.stepsByName.get(binding);
        if (namedStep !== undefined) return [new StepNameUsedAsBindingError(workflow.name, step.name, binding, namedStep.binding, target('binding'))];
        return [new UnknownBindingError(workflow.name, step.name, binding, scope.available, target('binding'))];
      }
      if (source.kind === 'field' && parseFieldPath(source.path) === undefined) {
        return [new InvalidFieldPathError(workflow.name, step.name, source.path, target('path'))];
      }
      return [];
    }
  }
}
