import { shownValues, type ShownValues, type WorkflowModel } from '../../model';
import { readStepRecords, readWorkflowModel, type WorkflowClass } from '../../model/read-workflow';

/**
 * What a workflow's `SKILL.md` and graph may show of its values (`shownValues`), knowing also what
 * is sensitive in the workflows its steps call as tools: a constant a step passes to a nested
 * workflow's sensitive argument (or to an argument that reaches one further down) is a sensitive
 * constant too, and reads `[redacted]`.
 *
 * @example
 * ```ts
 * skillShownValues(model, Release).value('4321'); // '[redacted]' when constant('4321') fills the nested Deploy's sensitive `pin`
 * ```
 */
export function skillShownValues(model: WorkflowModel, target?: WorkflowClass): ShownValues {
  if (!target) return shownValues(model);
  const called = calledSensitive(target, new Set());
  return shownValues(model, (index) => called[index] ?? []);
}

/** Per step of `target`, the arguments the workflow it calls as a tool takes as sensitive (none for other steps). */
function calledSensitive(target: WorkflowClass, seen: Set<WorkflowClass>): (readonly string[])[] {
  const inner = new Map(readStepRecords(target).map((record) => [record.property, record.options.tool] as const));
  return (readWorkflowModel(target)?.steps ?? []).map((step) => {
    const tool = inner.get(step.property) as { workflow?: WorkflowClass } | undefined;
    return tool?.workflow === undefined ? [] : sensitiveInputs(tool.workflow, seen);
  });
}

/**
 * The arguments of a workflow that are sensitive where it uses them: its `sensitiveArguments`, and
 * each argument it passes on to a sensitive argument of a step (its `sensitiveArgs`, or a nested
 * workflow's sensitive input). A cycle (refused at `use()`) reads as nothing more.
 */
function sensitiveInputs(target: WorkflowClass, seen: Set<WorkflowClass>): string[] {
  const model = readWorkflowModel(target);
  if (!model || seen.has(target)) return [];
  seen.add(target);
  const called = calledSensitive(target, seen);
  const names = new Set(model.arguments.filter((argument) => argument.sensitive).map((argument) => argument.name));
  model.steps.forEach((step, index) => {
    const marked = new Set([...step.sensitiveArgs, ...called[index]]);
    for (const { name, source } of step.args) if (marked.has(name) && source.kind === 'promptArg') names.add(source.name);
  });
  seen.delete(target);
  return [...names];
}
