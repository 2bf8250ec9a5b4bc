import { conditionSources, parallelGroups, parseFieldPath, type DataSource, type StepModel, type WorkflowModel } from '../model';
import { BindingUsedBeforeBoundError } from './errors/binding-used-before-bound-error';
import { ForEachOverNonArrayError } from './errors/for-each-over-non-array-error';
import { InvalidAskOptionError } from './errors/invalid-ask-option-error';
import { InvalidFieldPathError } from './errors/invalid-field-path-error';
import { ItemOutsideForEachError } from './errors/item-outside-for-each-error';
import { ParallelSiblingBindingError } from './errors/parallel-sibling-binding-error';
import { StepNameUsedAsBindingError } from './errors/step-name-used-as-binding-error';
import { UndeclaredPromptArgumentError } from './errors/undeclared-prompt-argument-error';
import { UnknownBindingError } from './errors/unknown-binding-error';
import type { SourceIssueTarget, SourcePart, WorkflowDefinitionError } from './errors/workflow-definition-error';
import { checkAsk } from './check-asks';

/**
 * Every data source (tool arguments, template bindings, `when` conditions and `forEach`, and the
 * sources an ask builds its question from) must read a declared prompt argument or a binding of an
 * earlier step outside the step's parallel group; `item()` needs a `forEach` step; a `forEach`
 * source must be able to hold an array; a path must be well formed. Asks fill arguments and URI
 * variables only.
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
      const scope: SourceScope = { workflow, step, declared, available, boundBy, stepsByName, siblings, inForEachSource: false };
      for (const { name, source } of step.args) {
        errors.push(...checkSource(source, (part) => ({ kind: 'argSource', step: step.name, arg: name, part }), scope));
      }
      for (const { variable, source } of step.fills) {
        errors.push(...checkSource(source, (part) => ({ kind: 'templateSource', step: step.name, variable, part }), scope));
      }
      if (step.when) {
        conditionSources(step.when).forEach((source, index) =>
          errors.push(
            ...notAnAsk(source, (part) => ({ kind: 'conditionSource', step: step.name, index, part }), scope, 'a when condition'),
          ),
        );
      }
      if (step.forEach) {
        const target: SourceTarget = (part) => ({ kind: 'forEachSource', step: step.name, part });
        errors.push(...notAnAsk(step.forEach, target, { ...scope, inForEachSource: true }, 'forEach'));
        const notArray = nonArraySource(step.forEach);
        if (notArray) errors.push(new ForEachOverNonArrayError(workflow.name, step.name, notArray, target('value')));
      }
    }
    for (const step of group) if (step.binding !== undefined) available.push(step.binding);
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
  /** Bindings of the other steps of a parallel group, by the step that binds each. */
  readonly siblings: ReadonlyMap<string, string>;
  /** Checking the step's `forEach` source itself, where `item()` has no element yet. */
  readonly inForEachSource: boolean;
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
    case 'item':
      if (scope.inForEachSource || step.forEach === undefined) {
        return [new ItemOutsideForEachError(workflow.name, step.name, scope.inForEachSource ? 'forEach' : 'step', target('value'))];
      }
      if (source.path !== undefined && parseFieldPath(source.path) === undefined)
        return [new InvalidFieldPathError(workflow.name, step.name, source.path, target('path'))];
      return [];
    case 'fromStep':
    case 'field': {
      const { binding } = source;
      const sibling = scope.siblings.get(binding);
      if (sibling !== undefined && sibling !== step.name)
        return [new ParallelSiblingBindingError(workflow.name, step.name, binding, sibling, target('binding'))];
      if (!scope.available.includes(binding)) {
        const laterStep = scope.boundBy.get(binding);
        if (laterStep !== undefined)
          return [new BindingUsedBeforeBoundError(workflow.name, step.name, binding, laterStep, target('binding'))];
        const namedStep = scope.stepsByName.get(binding);
        if (namedStep !== undefined)
          return [new StepNameUsedAsBindingError(workflow.name, step.name, binding, namedStep.binding, target('binding'))];
        return [new UnknownBindingError(workflow.name, step.name, binding, scope.available, target('binding'))];
      }
      if (source.kind === 'field' && parseFieldPath(source.path) === undefined) {
        return [new InvalidFieldPathError(workflow.name, step.name, source.path, target('path'))];
      }
      return [];
    }
  }
}

/** A condition or `forEach` source is checked like any other, but may not ask: it is read before the step's questions. */
function notAnAsk(source: DataSource, target: SourceTarget, scope: SourceScope, where: string): WorkflowDefinitionError[] {
  if (source.kind !== 'askUser' && source.kind !== 'askModel') return checkSource(source, target, scope);
  return [
    new InvalidAskOptionError(
      scope.workflow.name,
      scope.step.name,
      source.kind,
      `is used in ${where}; an ask can only fill a step argument or a URI variable.`,
      `ask in an earlier step, @Bind its answer, and read it here with fromStep() or field().`,
      target('value'),
    ),
  ];
}

/** What a `forEach` source is, when it can be seen without types that it is never an array. */
function nonArraySource(source: DataSource): string | undefined {
  if (source.kind === 'promptArg') return `prompt argument '${source.name}' (prompt arguments are strings)`;
  if (source.kind === 'constant' && !Array.isArray(source.value)) return `the constant ${JSON.stringify(source.value)}`;
  return undefined;
}
