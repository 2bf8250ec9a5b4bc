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
  /** The keys among `questions` that are put to the model (`askModel`). */
  readonly modelQuestions: ReadonlySet<string>;
  /** The tools and resources among them its steps name by a definition (`defineTool`, `defineResource`, `workflowTool`), which `use()` registers. */
  readonly byDefinition: ReadonlySet<string>;
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
  const uses = {
    workflow: outer.name,
    tools: new Set<string>(),
    resources: new Set<string>(),
    questions: new Set<string>(),
    modelQuestions: new Set<string>(),
    byDefinition: new Set<string>(),
  };
  const seen = new Set<WorkflowClass>();
  const visit = (current: WorkflowClass): void => {
    if (seen.has(current)) return;
    seen.add(current);
    const model = readWorkflowModel(current);
    if (model) collect(model, uses);
    for (const { options } of readStepRecords(current)) {
      const { tool, resource } = options as { tool?: unknown; resource?: unknown };
      if (typeof tool === 'object' && tool !== null) uses.byDefinition.add((tool as { name: string }).name);
      if (typeof resource === 'object' && resource !== null) uses.byDefinition.add((resource as { uriTemplate: string }).uriTemplate);
      if (isWorkflowToolDefinition(options.tool)) visit(options.tool.workflow);
    }
  };
  visit(target);
  return uses;
}

type Collected = { [K in Exclude<keyof WorkflowUses, 'workflow' | 'byDefinition'>]: Set<string> };

function collect(model: WorkflowModel, uses: Collected): void {
  for (const uri of model.resources) uses.resources.add(uri);
  for (const step of model.steps) {
    const tool = stepTool(step);
    if (tool !== undefined) uses.tools.add(tool);
    const uri = stepActionUri(step);
    if (uri !== undefined) uses.resources.add(uri);
    for (const embedded of step.resources) uses.resources.add(embedded);
    const asks = [
      ...step.args.map(({ name, source }) => ({ key: `${step.name}/${name}`, source })),
      ...step.fills.map(({ variable, source }) => ({ key: `${step.name}/{${variable}}`, source })),
    ];
    for (const { key, source } of asks) {
      if (!isAskSource(source)) continue;
      uses.questions.add(key);
      if (source.kind === 'askModel') uses.modelQuestions.add(key);
    }
  }
}
