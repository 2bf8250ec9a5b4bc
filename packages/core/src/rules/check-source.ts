import { parseFieldPath, type AskSource, type DataSource, type StepModel, type WorkflowModel } from '../model';
import {
  BindingUsedBeforeBoundError,
  InvalidFieldPathError,
  ItemOutsideForEachError,
  ParallelSiblingBindingError,
  StepNameUsedAsBindingError,
  UndeclaredPromptArgumentError,
  UnknownBindingError,
} from './errors/rule-errors';
import type { SourceIssueTarget, SourcePart, WorkflowDefinitionError } from './errors/workflow-definition-error';

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

/** The errors of one data source that is not an ask (`checkAsk` checks an ask, and the sources it reads with this). */
export function checkSource(source: Exclude<DataSource, AskSource>, target: SourceTarget, scope: SourceScope): WorkflowDefinitionError[] {
  const { workflow, step } = scope;
  switch (source.kind) {
    case 'promptArg':
      return scope.declared.includes(source.name)
        ? []
        : [new UndeclaredPromptArgumentError(workflow.name, step.name, source.name, scope.declared, target('name'))];
    case 'constant':
      return [];
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
