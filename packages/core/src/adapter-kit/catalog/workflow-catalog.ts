import type { AnyDefinition, WorkflowModel } from '../../model';
import type { WorkflowClass } from '../../model/read-workflow';
import type { AdapterLine } from '../adapter-line';
import { checkPromptNames, registerPromptFace } from '../faces/prompt-face';
import { getPrompt, type PromptedWorkflow } from '../prompts/get-prompt';
import type { PromptHandle } from '../registry/handles';
import type { RegistrationTracker } from '../registry/intercept-registrations';
import type { McpServerLike } from '../registry/mcp-server-like';
import { registerDefinition } from '../registry/register-definition';
import { ServerRegistry } from '../registry/server-registry';
import { WorkflowRunner } from '../run/workflow-runner';
import { toolInputSchema } from '../tools/tool-inputs';
import type { WorkflowServingOptions } from '../workflow-serving-options';
import { checkUse } from './check-use';
import { DefinitionRegistry } from './definition-registry';
import { registrationErrors } from './registration-errors';
import { throwIfAny } from './throw-if-any';
import { WorkflowPlans } from './workflow-plans';

/**
 * What one WorkflowServer serves, on either line: its workflows, the definitions they brought, and
 * the registry of everything registered on it. `use()`, `registerDefinitions()` and `validate()`
 * are implemented here, once; each workflow is registered under each of its faces.
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
  private readonly models: WorkflowModel[] = [];
  private readonly prompted = new WeakMap<PromptHandle, PromptedWorkflow<Context>>();
  private getPromptHandled = false;

  constructor(
    private readonly server: Server,
    private readonly line: AdapterLine<Server, Context>,
    options?: WorkflowServingOptions,
  ) {
    this.registry = new ServerRegistry(line.parseUriTemplate, (tool) => toolInputSchema(line, tool));
    this.plans = WorkflowPlans.of(line.parseUriTemplate);
    this.runner = new WorkflowRunner(server, line, this.registry, options);
  }

  /** Checks every class (and the definitions they reference), then registers them all, or throws and registers none. */
  use(classes: readonly WorkflowClass[]): void {
    const { models, definitions } = checkUse(this.plans, classes, this.models, this.definitions, this.registry);
    checkPromptNames(this.registry, models);
    definitions.forEach((definition) => this.registerDefinition(definition));
    models.forEach((model, index) => this.serve(model, classes[index]));
  }

  /** Registers the definitions not registered yet. */
  registerDefinitions(definitions: readonly AnyDefinition[]): void {
    for (const definition of definitions) if (!this.definitions.has(definition)) this.registerDefinition(definition);
  }

  /** Throws what the workflows need that the server does not register (tools, resources, tool inputs). */
  validate(): void {
    throwIfAny(registrationErrors(this.models, this.registry));
  }

  promptRegistered(): void {
    if (this.getPromptHandled) return;
    this.getPromptHandled = true;
    const { line, registry, prompted } = this;
    line.handleGetPrompt(this.server, (name, args, context) => getPrompt(line, registry, prompted, name, args, context));
  }

  private registerDefinition(definition: AnyDefinition): void {
    registerDefinition(this.server, this.line, definition);
    this.definitions.add(definition);
  }

  /** Serves one checked workflow under each of its faces. */
  private serve(model: WorkflowModel, target: WorkflowClass): void {
    const plan = this.plans.plan(target);
    const asks = plan.steps.some((step) => step.asks.length > 0);
    const workflow: PromptedWorkflow<Context> = { run: (args, context) => this.runner.run(plan, asks, args, context) };
    this.prompted.set(registerPromptFace(this.server, model, target, workflow.run as never), workflow);
    this.models.push(model);
  }
}
