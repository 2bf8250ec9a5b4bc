import { workflowFaces, type WorkflowModel } from '../../model';
import type { WorkflowClass } from '../../model/read-workflow';
import {
  SkillFaceUnavailableError,
  TaskFaceUnavailableError,
  WorkflowToolNotExposedError,
  checkPromptArguments,
  checkWorkflowCallArguments,
  checkWorkflowCycles,
  type WorkflowDefinitionError,
} from '../../rules';
import { argumentAcceptsString } from '../faces/argument-accepts-string';
import { workflowCallsOf } from './called-workflows';

/**
 * What `use()` finds wrong with the faces of the workflows it is given, next to those the server
 * serves: a step calling a workflow class that is not served as a tool, or mapping an argument it
 * does not declare; a prompt argument whose schema takes no string; workflows calling each other in a
 * ring; and a skill (or a task tool) on a line that has no skills (tasks) extension (`entry` names the
 * line, `skills`/`tasks` say whether it has one).
 *
 * @example
 * ```ts
 * throwIfAny(faceErrors(classes, models, served, { skills: line.skills !== undefined, entry: line.entry }));
 * ```
 */
export function faceErrors(
  classes: readonly WorkflowClass[],
  models: readonly WorkflowModel[],
  served: ReadonlyMap<WorkflowClass, WorkflowModel>,
  line: { readonly skills: boolean; readonly tasks?: boolean; readonly entry: string },
): WorkflowDefinitionError[] {
  const errors: WorkflowDefinitionError[] = [];
  const modelOf = (target: WorkflowClass) => served.get(target) ?? models[classes.indexOf(target)];
  classes.forEach((target, index) => {
    const model = models[index];
    errors.push(...checkPromptArguments(model, (argument) => argumentAcceptsString(target, argument)));
    const called = new Map<string, WorkflowModel>();
    for (const { position, definition } of workflowCallsOf(target)) {
      const inner = modelOf(definition.workflow);
      const tool = inner && workflowFaces(inner).tool;
      if (inner && !tool) errors.push(new WorkflowToolNotExposedError(model.name, model.steps[position].name, inner.name, inner.className));
      else if (inner && tool) called.set(tool.name, inner);
    }
    if (called.size) errors.push(...checkWorkflowCallArguments(model, (tool) => called.get(tool)));
    if (!line.skills && workflowFaces(model).skill) errors.push(new SkillFaceUnavailableError(model.name, line.entry));
    if (!line.tasks && workflowFaces(model).tool?.task) errors.push(new TaskFaceUnavailableError(model.name, line.entry));
  });
  // The new workflows first: a ring they close is reported on them, not on a workflow already served.
  return [...errors, ...checkWorkflowCycles([...models, ...served.values()])];
}
