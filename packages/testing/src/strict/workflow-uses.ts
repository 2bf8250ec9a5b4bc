import {
  isAskSource,
  isWorkflowToolDefinition,
  readStepRecords,
  readWorkflowModel,
  stepActionUri,
  stepTool,
  type WorkflowClass,
  type WorkflowModel,
} from '@mcpflow/core';

/** What a workflow, and the workflows its steps call (`workflowTool(Inner)`), can use of a run's options. */
export interface WorkflowUses {
  /** Its name, for messages. */
  readonly workflow: string;
  /** Tool names its steps call. */
  readonly tools: ReadonlySet<string>;
  /** URI templates (and fixed URIs) its steps read or embed, and its instruction resources. */
  readonly resources: ReadonlySet<string>;
  /** Question keys (`<step>/<argument>`, `<step>/{<variable>}`) of its `askUser` and `askModel` sources. */
  readonly questions: ReadonlySet<string>;
}

/**
 * Reads what a workflow class can use of `runWorkflow`'s `tools`, `resources` and `answers`: the
 * tools, resources and questions of its steps and of every workflow it calls as a tool. Undefined
 * when the class has no `@Workflow` (the server's `use()` says so).
 *
 * @example
 * ```ts
 * workflowUses(GetHint)?.tools; // Set { 'get_my_progress', 'write_hint' }
 * ```
 */
export function workflowUses(target: WorkflowClass): WorkflowUses | undefined {
  const outer = readWorkflowModel(target);
  if (!outer) return undefined;
  const uses = { workflow: outer.name, tools: new Set<string>(), resources: new Set<string>(), questions: new Set<string>() };
  const seen = new Set<WorkflowClass>();
  const visit = (current: WorkflowClass): void => {
    if (seen.has(current)) return;
    seen.add(current);
    const model = readWorkflowModel(current);
    if (model) collect(model, uses);
    for (const { options } of readStepRecords(current)) if (isWorkflowToolDefinition(options.tool)) visit(options.tool.workflow);
  };
  visit(target);
  return uses;
}

function collect(model: WorkflowModel, uses: { tools: Set<string>; resources: Set<string>; questions: Set<string> }): void {
  for (const uri of model.resources) uses.resources.add(uri);
  for (const step of model.steps) {
    const tool = stepTool(step);
    if (tool !== undefined) uses.tools.add(tool);
    const uri = stepActionUri(step);
    if (uri !== undefined) uses.resources.add(uri);
    for (const embedded of step.resources) uses.resources.add(embedded);
    for (const { name, source } of step.args) if (isAskSource(source)) uses.questions.add(`${step.name}/${name}`);
    for (const { variable, source } of step.fills) if (isAskSource(source)) uses.questions.add(`${step.name}/{${variable}}`);
  }
}
