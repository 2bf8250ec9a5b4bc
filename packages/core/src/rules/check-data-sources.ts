import { conditionSources, parallelGroups, parseFieldPath, type DataSource, type StepModel, type WorkflowModel } from '../model';
import { BindingUsedBeforeBoundError } from './errors/binding-used-before-bound-error';
import { ForEachOverNonArrayError } from './errors/for-each-over-non-array-error';
import { InvalidFieldPathError } from './errors/invalid-field-path-error';
import { ItemOutsideForEachError } from './errors/item-outside-for-each-error';
import { ParallelSiblingBindingError } from './errors/parallel-sibling-binding-error';
import { StepNameUsedAsBindingError } from './errors/step-name-used-as-binding-error';
import { UndeclaredPromptArgumentError } from './errors/undeclared-prompt-argument-error';
import { UnknownBindingError } from './errors/unknown-binding-error';
import type { IssueTarget, SourcePart, WorkflowDefinitionError } from './errors/workflow-definition-error';

/**
 * Every data source (tool arguments, template bindings, `when` conditions and `forEach`) must read
 * a declared prompt argument or a binding of an earlier step outside the step's parallel group;
 * `item()` needs a `forEach` step; a `forEach` source must be able to hold an array; a path must be
 * well formed.
 */
export function checkDataSources(workflow: WorkflowModel): WorkflowDefinitionError[] {
  const errors: WorkflowDefinitionError[] = [];
  const declared = workflow.arguments.map((argument) => argument.name);
  const boundBy = new Map<string, string>();
  for (const step of workflow.steps) if (step.binding !== undefined && !boundBy.has(step.binding)) boundBy.set(step.binding, step.name);
  const stepsByName = new Map(workflow.steps.map((step) => [step.name, step] as const));

  const available: string[] = [];
  for (const group of parallelGroups(workflow.steps)) {
    const siblings = new Map<string, string>();
    if (group.length > 1) for (const step of group) if (step.binding !== undefined) siblings.set(step.binding, step.name);
    for (const step of group) {
      const scope: Scope = { declared, available, boundBy, stepsByName, siblings };
      const check = (source: DataSource, target: (part: SourcePart) => IssueTarget, inForEachSource = false): void => {
        const error = checkSource(workflow, step, source, target, scope, inForEachSource);
        if (error) errors.push(error);
      };
      for (const { name, source } of step.args) {
        check(source, (part) => ({ kind: 'argSource', step: step.name, arg: name, part }));
      }
      for (const { variable, source } of step.templateBindings) {
        check(source, (part) => ({ kind: 'templateSource', step: step.name, variable, part }));
      }
      if (step.when) {
        conditionSources(step.when).forEach((source, index) => check(source, (part) => ({ kind: 'conditionSource', step: step.name, index, part })));
      }
      if (step.forEach) {
        const target = (part: SourcePart): IssueTarget => ({ kind: 'forEachSource', step: step.name, part });
        check(step.forEach, target, true);
        const notArray = nonArraySource(step.forEach);
        if (notArray) errors.push(new ForEachOverNonArrayError(workflow.name, step.name, notArray, target('value')));
      }
    }
    for (const step of group) if (step.binding !== undefined) available.push(step.binding);
  }
  return errors;
}

interface Scope {
  readonly declared: readonly string[];
  readonly available: readonly string[];
  readonly boundBy: ReadonlyMap<string, string>;
  readonly stepsByName: ReadonlyMap<string, StepModel>;
  /** Bindings of the other steps of a parallel group, by the step that binds each. */
  readonly siblings: ReadonlyMap<string, string>;
}

function checkSource(
  workflow: WorkflowModel,
  step: StepModel,
  source: DataSource,
  target: (part: SourcePart) => IssueTarget,
  scope: Scope,
  inForEachSource: boolean,
): WorkflowDefinitionError | undefined {
  if (source.kind === 'promptArg') {
    return scope.declared.includes(source.name)
      ? undefined
      : new UndeclaredPromptArgumentError(workflow.name, step.name, source.name, scope.declared, target('name'));
  }
  if (source.kind === 'constant') return undefined;
  if (source.kind === 'item') {
    if (inForEachSource || step.forEach === undefined) return new ItemOutsideForEachError(workflow.name, step.name, inForEachSource ? 'forEach' : 'step', target('value'));
    if (source.path !== undefined && parseFieldPath(source.path) === undefined) return new InvalidFieldPathError(workflow.name, step.name, source.path, target('path'));
    return undefined;
  }
  const { binding } = source;
  const sibling = scope.siblings.get(binding);
  if (sibling !== undefined && sibling !== step.name) return new ParallelSiblingBindingError(workflow.name, step.name, binding, sibling, target('binding'));
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

/** What a `forEach` source is, when it can be seen without types that it is never an array. */
function nonArraySource(source: DataSource): string | undefined {
  if (source.kind === 'promptArg') return `prompt argument '${source.name}' (prompt arguments are strings)`;
  if (source.kind === 'constant' && !Array.isArray(source.value)) return `the constant ${JSON.stringify(source.value)}`;
  return undefined;
}
