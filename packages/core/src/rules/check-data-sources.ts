import { conditionSources, isAskSource, parallelGroups, type DataSource, type WorkflowModel } from '../model';
import { ForEachOverNonArrayError, InvalidAskOptionError } from './errors/rule-errors';
import type { WorkflowDefinitionError } from './errors/workflow-definition-error';
import { checkAsk } from './check-asks';
import { checkSource, type SourceScope, type SourceTarget } from './check-source';

/**
 * Every data source (tool arguments, URI variable fills, `when` conditions and `forEach`, and the
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
        errors.push(...checkValueSource(source, (part) => ({ kind: 'argSource', step: step.name, arg: name, part }), scope));
      }
      for (const { variable, source } of step.fills) {
        errors.push(...checkValueSource(source, (part) => ({ kind: 'templateSource', step: step.name, variable, part }), scope));
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

/** A source that fills an argument or a URI variable: any source, an ask included. */
function checkValueSource(source: DataSource, target: SourceTarget, scope: SourceScope): WorkflowDefinitionError[] {
  return isAskSource(source) ? checkAsk(source, target, scope) : checkSource(source, target, scope);
}

/** A condition or `forEach` source is checked like any other, but may not ask: it is read before the step's questions. */
function notAnAsk(source: DataSource, target: SourceTarget, scope: SourceScope, where: string): WorkflowDefinitionError[] {
  if (!isAskSource(source)) return checkSource(source, target, scope);
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
