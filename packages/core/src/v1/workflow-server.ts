import { McpServer, type RegisteredPrompt, type ReadResourceTemplateCallback } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ServerOptions } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, type GetPromptResult, type Implementation } from '@modelcontextprotocol/sdk/types.js';
import { readWorkflowOptions, type WorkflowClass } from '../model/read-workflow';
import type { WorkflowModel } from '../model';
import { didYouMean } from '../rules';
import {
  DefinitionRegistry,
  WorkflowPlans,
  applyLimits,
  executeWorkflow,
  type AnyDefinition,
  type ExecutionLimits,
  type ExecutionOptions,
  type WorkflowHooks,
  type WorkflowPlan,
} from '../engine';
import { boundText } from '../engine/text/bounded-text';
import { askClientInPlace } from './ask-client';
import { V1Host } from './host';
import { parseUriTemplate } from './parse-uri-template';
import { LenientGetPromptRequestSchema } from './prompts/get-prompt-request';
import { parsePromptArguments } from './prompts/prompt-arguments';
import { ServerRegistry, decodingCallback } from '../shared/server-registry';
import { checkUse } from '../shared/check-use';
import { registrationErrors } from '../shared/registration-errors';
import { throwIfAny } from '../shared/throw-if-any';
import { registerDefinition } from './register-definition';
import { toolInputSchema } from './tools/tool-inputs';
import type { V1Registry } from './server-registry';
import type { RequestExtra } from './request-extra';

/** Each class is checked and planned once per process, however many servers use it. */
const plans = new WorkflowPlans(parseUriTemplate);

/**
 * Options of a WorkflowServer: the SDK's server options, observability hooks, and the limits of
 * every run (`defaultStepTimeoutMs`, `maxTraceBytes`).
 *
 * @example
 * ```ts
 * new WorkflowServer({ name: 'svc', version: '1.0.0' }, { onStep: log, defaultStepTimeoutMs: 10_000, maxTraceBytes: 2 ** 20 });
 * ```
 */
export interface WorkflowServerOptions extends ServerOptions, WorkflowHooks, ExecutionLimits {
  /** How long a workflow waits for the client to answer one `askUser`/`askModel` question. Default 10 minutes. */
  askTimeoutMs?: number;
}

interface RegisteredWorkflow {
  readonly model: WorkflowModel;
  readonly plan: WorkflowPlan;
}

/**
 * An `McpServer` that also serves decorated workflow classes as prompts. On `prompts/get` it runs
 * the workflow's deterministic steps itself — its own tools and resources, in process — and
 * returns the conversation trace, handing off to the client's LLM where a step needs it.
 *
 * @example
 * ```ts
 * const server = new WorkflowServer({ name: 'interactive-fiction', version: '1.0.0' });
 * server.registerTool('get_my_progress', { inputSchema: { player: z.string() } }, handler);
 * server.use(GetHint);                            // structural errors throw here
 * await server.connect(new StdioServerTransport()); // unregistered tools/resources reject here
 * ```
 */
export class WorkflowServer extends McpServer {
  private readonly registry: V1Registry = new ServerRegistry(parseUriTemplate, toolInputSchema);
  private readonly definitions = new DefinitionRegistry();
  private readonly workflows: RegisteredWorkflow[] = [];
  private readonly workflowPrompts = new WeakMap<RegisteredPrompt, RegisteredWorkflow>();
  private readonly execution: ExecutionOptions;
  private readonly askTimeoutMs?: number;
  private getPromptInstalled = false;

  constructor(serverInfo: Implementation, options?: WorkflowServerOptions) {
    super(serverInfo, options);
    // Limits out of range throw here, when the server is made, not on the first request.
    this.execution = { onStep: options?.onStep, onRunEnd: options?.onRunEnd, ...applyLimits(options) };
    this.askTimeoutMs = options?.askTimeoutMs;
  }

  /**
   * Registers each decorated class as a prompt, and the tool and resource definitions its steps
   * reference that are not registered yet. All classes are checked before any is registered; a
   * broken declaration throws here, synchronously: the one `WorkflowDefinitionError`, or a
   * `WorkflowValidationError` listing several.
   */
  use(...classes: WorkflowClass[]): this {
    const served = this.workflows.map((workflow) => workflow.model);
    const { models, definitions } = checkUse(plans, classes, served, this.definitions, this.registry);
    // All or nothing: a name taken by a plain prompt fails before any class is registered.
    const taken = models.find((model) => this.registry.prompts.get(model.name));
    if (taken)
      throw new Error(`Prompt ${taken.name} is already registered on this server; give workflow class ${taken.className} another name.`);
    definitions.forEach((definition) => this.registerDefinition(definition));
    models.forEach((model, index) => this.registerWorkflow(model, classes[index]));
    return this;
  }

  /**
   * Registers tool and resource definitions from `defineTool`/`defineResource` on this server
   * (`use()` does it for those its workflows reference). A definition already registered is skipped.
   *
   * @example
   * ```ts
   * server.registerDefinitions(getWeather, forecast);
   * ```
   */
  registerDefinitions(...definitions: AnyDefinition[]): this {
    for (const definition of definitions) if (!this.definitions.has(definition)) this.registerDefinition(definition);
    return this;
  }

  /**
   * Checks that every tool and resource a workflow uses is registered, and that every step's
   * arguments fit its tool's input schema (no unknown names, no constant the schema rejects, no
   * prompt argument into an input that takes no string). `connect()` calls it; call it yourself to
   * fail earlier (in a test, say).
   */
  validate(): void {
    throwIfAny(
      registrationErrors(
        this.workflows.map((workflow) => workflow.model),
        this.registry,
      ),
    );
  }

  /** Validates the workflows against what is registered, then connects: nothing is served if a reference is broken. */
  override async connect(transport: Transport): Promise<void> {
    this.validate();
    await super.connect(transport);
  }

  private registerDefinition(definition: AnyDefinition): void {
    registerDefinition(this, definition);
    this.definitions.add(definition);
  }

  private registerWorkflow(model: WorkflowModel, target: WorkflowClass): void {
    const workflow: RegisteredWorkflow = { model, plan: plans.plan(target) };
    const asks = workflow.plan.steps.some((step) => step.asks.length > 0);
    const handle = this.registerPrompt(
      model.name,
      { title: model.title, description: model.description, argsSchema: readWorkflowOptions(target)?.arguments as never },
      ((args: Record<string, string | undefined>, extra: RequestExtra) =>
        executeWorkflow(workflow.plan, args, this.host(asks, extra), this.execution) as Promise<GetPromptResult>) as never,
    );
    this.workflows.push(workflow);
    this.workflowPrompts.set(handle, workflow);
  }

  /** The engine's host for one request; it can ask the client only when the workflow has questions. */
  private host(asks: boolean, extra: RequestExtra): V1Host {
    return new V1Host(this.registry, extra, asks ? askClientInPlace(this.server, extra, this.askTimeoutMs) : undefined);
  }

  /** Replaces the SDK's `prompts/get` handler (once) so every prompt's arguments get errors that name them. */
  private installGetPrompt(): void {
    if (this.getPromptInstalled) return;
    this.getPromptInstalled = true;
    this.server.removeRequestHandler('prompts/get');
    this.server.setRequestHandler(
      LenientGetPromptRequestSchema as never,
      ((request: { params?: unknown }, extra: RequestExtra) => {
        const params = (typeof request.params === 'object' && request.params !== null ? request.params : {}) as {
          name?: unknown;
          arguments?: unknown;
        };
        return this.getPrompt(params.name, params.arguments, extra);
      }) as never,
    );
  }

  private async getPrompt(name: unknown, raw: unknown, extra: RequestExtra): Promise<GetPromptResult> {
    // Kept to as few awaits as possible: it is on every prompts/get.
    if (typeof name !== 'string') throw new McpError(ErrorCode.InvalidParams, `prompts/get needs 'name', the prompt's name as a string`);
    const prompt = this.registry.prompts.get(name);
    if (!prompt)
      throw new McpError(
        ErrorCode.InvalidParams,
        `Prompt ${boundText(name, 200)} not found.${didYouMean(name, this.registry.prompts.keys())}`,
      );
    if (!prompt.enabled) throw new McpError(ErrorCode.InvalidParams, `Prompt ${name} disabled`);
    const isWorkflow = this.workflowPrompts.has(prompt);
    const parsed = parsePromptArguments(name, prompt, raw, isWorkflow);
    const args = parsed instanceof Promise ? await parsed : parsed;
    const callback = prompt.callback as (...params: unknown[]) => GetPromptResult | Promise<GetPromptResult>;
    // The SDK calls a prompt without arguments as callback(extra); a workflow always takes (args, extra).
    return prompt.argsSchema || isWorkflow ? callback(args ?? {}, extra) : callback(extra);
  }

  static {
    // Every registration form (registerTool and the older tool(), …) goes through these public
    // methods; the handles they return are kept in our registry to run handlers in process.
    const base = McpServer.prototype;
    const own = WorkflowServer.prototype;
    own.registerTool = function (this: WorkflowServer, ...args: unknown[]) {
      return this.registry.tools.track(args[0] as string, (base.registerTool as (...a: unknown[]) => never).apply(this, args));
    } as McpServer['registerTool'];
    own.tool = function (this: WorkflowServer, ...args: unknown[]) {
      return this.registry.tools.track(args[0] as string, (base.tool as (...a: unknown[]) => never).apply(this, args));
    } as McpServer['tool'];
    const resource = (method: (...a: unknown[]) => never) =>
      function (this: WorkflowServer, ...args: unknown[]) {
        const [name, uriOrTemplate] = args as [string, unknown];
        if (typeof uriOrTemplate === 'string') return this.registry.resources.track(uriOrTemplate, method.apply(this, args));
        args[args.length - 1] = decodingCallback(args[args.length - 1] as ReadResourceTemplateCallback);
        const handle = method.apply(this, args);
        this.registry.trackTemplate(name, handle);
        return handle;
      };
    own.registerResource = resource(base.registerResource as never) as McpServer['registerResource'];
    own.resource = resource(base.resource as never) as McpServer['resource'];
    const prompt = (method: (...a: unknown[]) => never) =>
      function (this: WorkflowServer, ...args: unknown[]) {
        const handle = this.registry.prompts.track(args[0] as string, method.apply(this, args));
        this.installGetPrompt();
        return handle;
      };
    own.registerPrompt = prompt(base.registerPrompt as never) as McpServer['registerPrompt'];
    own.prompt = prompt(base.prompt as never) as McpServer['prompt'];
  }
}
