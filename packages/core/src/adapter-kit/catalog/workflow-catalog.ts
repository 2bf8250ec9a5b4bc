import type { WorkflowPlan } from '../../engine';
import { workflowFaces, type AnyDefinition, type TaskSupport, type WorkflowModel } from '../../model';
import type { WorkflowClass } from '../../model/read-workflow';
import type { AdapterLine } from '../adapter-line';
import { checkPromptNames, registerPromptFace } from '../faces/prompt-face';
import { checkSkillNames, registerSkillFace } from '../faces/skill-face';
import { ServerSkills } from '../faces/skill-source';
import { routeToolCalls, workflowToolOf } from '../faces/tool-calls';
import { checkToolNames, registerToolFace, workflowInputSchema, type ToolWorkflow } from '../faces/tool-face';
import { workflowToolResult } from '../faces/tool-result';
import { getPrompt, type PromptedWorkflow } from '../prompts/get-prompt';
import { ownArguments } from '../prompts/prompt-argument-problems';
import type { PromptHandle, ToolHandle } from '../registry/handles';
import type { RegistrationTracker } from '../registry/intercept-registrations';
import type { McpServerLike } from '../registry/mcp-server-like';
import { registerDefinition } from '../registry/register-definition';
import { ServerRegistry } from '../registry/server-registry';
import { WorkflowRunner, type WorkflowArguments, type WorkflowCall } from '../run/workflow-runner';
import { ServerTasks } from '../tasks/server-tasks';
import { DevReruns } from '../dev/dev-reruns';
import { debugLine } from '../telemetry/debug-log';
import { toolInputSchema } from '../tools/tool-inputs';
import type { WorkflowServingOptions } from '../workflow-serving-options';
import { withCalledWorkflows } from './called-workflows';
import { askAnswerErrors } from './ask-answer-errors';
import { checkUse } from './check-use';
import { DefinitionRegistry } from './definition-registry';
import { faceErrors } from './face-errors';
import { registrationErrors } from './registration-errors';
import { throwIfAny } from './throw-if-any';
import { WorkflowPlans } from './workflow-plans';

/**
 * What one WorkflowServer serves, on either line: its workflows, the definitions they brought, and
 * the registry of everything registered on it. `use()`, `registerDefinitions()` and `validate()`
 * are implemented here, once; each workflow is registered under each of its faces (prompt, tool,
 * skill: `expose`).
 *
 * @example
 * ```ts
 * const catalog = new WorkflowCatalog(server, line, options);
 * catalog.use([GetHint]);
 * catalog.validate();
 * ```
 */
export class WorkflowCatalog<Server extends McpServerLike, Context> implements RegistrationTracker {
  readonly registry: ServerRegistry;
  private readonly plans: WorkflowPlans;
  private readonly runner: WorkflowRunner<Server, Context>;
  private readonly definitions = new DefinitionRegistry();
  /** The workflow classes served, in `use()` order, with their models. */
  private readonly served = new Map<WorkflowClass, WorkflowModel>();
  private readonly prompted = new WeakMap<PromptHandle, PromptedWorkflow<Context>>();
  private readonly tools = new WeakMap<ToolHandle, ToolWorkflow<Context>>();
  private readonly skills = new ServerSkills();
  /** The server's side of MCP tasks, on a line that serves them. */
  private readonly tasks?: ServerTasks<Server, Context>;
  private getPromptHandled = false;
  /** Dev mode's `mcpflow/rerun` (`dev: true` or `MCPFLOW_DEV=1`); absent otherwise. */
  private readonly reruns?: DevReruns<Server, Context>;

  constructor(
    private readonly server: Server,
    private readonly line: AdapterLine<Server, Context>,
    options?: WorkflowServingOptions,
  ) {
    this.registry = new ServerRegistry(line.parseUriTemplate, (tool) => toolInputSchema(line, tool));
    this.plans = WorkflowPlans.of(line.parseUriTemplate);
    this.runner = new WorkflowRunner(server, line, this.registry, options);
    if (this.runner.records) this.reruns = new DevReruns(server, line, this.runner, this.runner.records);
    if (line.tasks) {
      const taskOptions = { ...options, maxTraceBytes: this.runner.limits.maxTraceBytes };
      this.tasks = new ServerTasks(server, line, line.tasks, taskOptions, debugLine(options?.logger, process.env.DEBUG));
    }
    const tasks = this.tasks && {
      handles: (name: unknown): name is string => this.tasks!.handles(name),
      enabled: (name: string) => this.registry.tools.get(name)?.enabled === true,
      call: this.tasks.call.bind(this.tasks),
    };
    routeToolCalls(server, line, (name) => workflowToolOf(this.registry, this.tools, name), tasks);
  }

  /**
   * Checks every class (with the workflow classes their steps call, and the definitions they
   * reference), then registers them all, or throws and registers none.
   */
  use(given: readonly WorkflowClass[]): void {
    const classes = withCalledWorkflows(given, this.served);
    const served = [...this.served.values()];
    const { models, definitions } = checkUse(this.plans, classes, served, this.definitions, this.registry);
    throwIfAny(
      faceErrors(classes, models, this.served, {
        skills: this.line.skills !== undefined,
        tasks: this.tasks !== undefined,
        entry: this.line.entry,
      }),
    );
    checkTaskDefinitions(definitions, this.tasks !== undefined, this.line.entry);
    checkPromptNames(
      this.registry,
      models.filter((model) => workflowFaces(model).prompt),
    );
    checkToolNames(this.registry, served, models, definitions);
    throwIfAny(askAnswerErrors(models, definitions, this.registry, this.line as AdapterLine<unknown, unknown>));
    checkSkillNames(this.skills, models);
    definitions.forEach((definition) => this.registerDefinition(definition));
    models.forEach((model, index) => this.serve(model, classes[index]));
  }

  /** Registers the definitions not registered yet. */
  registerDefinitions(definitions: readonly AnyDefinition[]): void {
    checkTaskDefinitions(definitions, this.tasks !== undefined, this.line.entry);
    for (const definition of definitions) if (!this.definitions.has(definition)) this.registerDefinition(definition);
  }

  /** Throws what the workflows need that the server does not register (tools, resources, tool inputs). */
  validate(): void {
    throwIfAny(registrationErrors(this.served, this.registry));
  }

  /** Rejects when the server's task store cannot work in this process (a package it runs on is missing, or it could not start: Redis down). */
  async ready(): Promise<void> {
    await this.tasks?.store.check?.();
    await this.tasks?.ready();
  }

  promptRegistered(): void {
    if (this.getPromptHandled) return;
    this.getPromptHandled = true;
    const { line, registry, prompted } = this;
    line.handleGetPrompt(this.server, (name, args, context) => getPrompt(line, registry, prompted, name, args, context));
  }

  private registerDefinition(definition: AnyDefinition): void {
    registerDefinition(this.server, this.line as AdapterLine<unknown, unknown>, this.registry, definition);
    this.definitions.add(definition);
    // A private step tool is never a client's task: clients cannot call it at all (DESIGN §1).
    const task = definition.kind === 'tool' && definition.config.visibility !== 'workflow' ? definition.config.task : undefined;
    const handle = task && this.registry.tools.get(definition.name);
    if (task && handle) this.tasks?.servePlain(definition.name, task, handle);
  }

  /** Serves one checked workflow under each of its faces. */
  private serve(model: WorkflowModel, target: WorkflowClass): void {
    const plan = this.plans.plan(target);
    const asks = plan.steps.some((step) => step.asks.length > 0);
    const faces = workflowFaces(model);
    this.served.set(target, model);
    if (faces.prompt) this.servePrompt(model, target, plan, asks);
    if (faces.tool) this.serveTool(model, target, plan, asks, faces.tool);
    if (faces.skill) registerSkillFace(this.server, this.line as AdapterLine<Server, unknown>, this.skills, target, model);
  }

  private servePrompt(model: WorkflowModel, target: WorkflowClass, plan: WorkflowPlan, asks: boolean): void {
    const call: WorkflowCall = { face: 'prompt', name: model.name };
    const workflow: PromptedWorkflow<Context> = {
      argsSchema: model.arguments.length > 0 ? workflowInputSchema(target) : undefined,
      run: (args, context) => this.runner.run(plan, asks, args, context, call),
    };
    this.reruns?.serve(call, plan, asks, workflow.argsSchema);
    this.prompted.set(registerPromptFace(this.server, model, target, workflow.run as never), workflow);
  }

  /** The tool face: a client's `tools/call` runs `called`; a step of another workflow runs the same tool `nested`. */
  private serveTool(
    model: WorkflowModel,
    target: WorkflowClass,
    plan: WorkflowPlan,
    asks: boolean,
    tool: { name: string; title?: string; task?: TaskSupport },
  ): void {
    const { maxTraceBytes } = this.runner.limits;
    const opening = (plan.model.instructions?.length ?? 0) + 2;
    const finish: WorkflowCall['finish'] = (result, end) => workflowToolResult(result, end, maxTraceBytes, opening);
    const called: WorkflowCall = { face: 'tool', name: tool.name, finish };
    const nested: WorkflowCall = { ...called, nested: true };
    const workflow: ToolWorkflow<Context> = {
      inputSchema: workflowInputSchema(target),
      call: (args, context) => this.runner.run(plan, asks, args, context, called),
    };
    const inProcess = (args: WorkflowArguments, context: Context) =>
      this.runner.run(plan, asks, ownArguments(args) as WorkflowArguments, context, nested);
    this.reruns?.serve(called, plan, asks, workflow.inputSchema);
    const handle = registerToolFace(this.server, model, target, tool, inProcess as never);
    this.tools.set(handle, workflow);
    this.registry.workflowTools.set(handle, model.name);
    if (tool.task && this.tasks) {
      this.line.tasks!.markTool(handle, tool.task);
      const round: WorkflowCall = { ...called, taskTtlMs: this.tasks.store.ttlMs };
      this.tasks.serveWorkflow(tool.name, tool.task, {
        plan,
        inputSchema: workflow.inputSchema,
        round: (args, context, asking, state, sealer, durable, status) =>
          this.runner.taskRound(plan, args as WorkflowArguments, context, round, asking, state, sealer, durable, status),
      });
    }
  }
}

/** A `defineTool(…, { task })` on a line without tasks (SDK 1.x) is refused before anything is registered. */
function checkTaskDefinitions(definitions: readonly AnyDefinition[], tasks: boolean, entry: string): void {
  if (tasks) return;
  const task = definitions.find((definition) => definition.kind === 'tool' && definition.config.task !== undefined);
  if (task)
    throw new Error(
      `Tool ${task.name} is defined with task: '${(task as { config: { task?: string } }).config.task}', but this server (${entry}) serves no MCP tasks (SEP-2663, MCP SDK 2.x). ` +
        `Serve it with WorkflowServer from '@mcpflow/core/v2', or remove the task option from defineTool.`,
    );
}
