import {
  McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type GetPromptResult,
  type InputRequiredResult,
  type Implementation,
  type McpServerOptions,
  type ReadResourceTemplateCallback,
  type RegisteredPrompt,
  type Transport,
} from '@modelcontextprotocol/server';
import {
  DefinitionRegistry,
  WorkflowPlans,
  applyLimits,
  executeWorkflow,
  type AnyDefinition,
  type ExecutionLimits,
  type ExecutionOptions,
  type StateSealingOptions,
  type WorkflowHooks,
  type WorkflowPlan,
} from '../engine';
import { boundText } from '../engine/text/bounded-text';
import { askChannel, servesRounds } from './ask-client';
import { runRound } from './pause/run-round';
import { stateSealer } from './pause/state-sealers';
import type { WorkflowModel } from '../model';
import { readWorkflowOptions, type WorkflowClass } from '../model/read-workflow';
import { didYouMean } from '../rules';
import { ServerRegistry, decodingCallback } from '../shared/server-registry';
import { checkUse } from '../shared/check-use';
import { registrationErrors } from '../shared/registration-errors';
import { throwIfAny } from '../shared/throw-if-any';
import { registerDefinition } from './register-definition';
import { toolInputSchema } from './tools/tool-inputs';
import { V2Host } from './host';
import { parseUriTemplate } from './parse-uri-template';
import { LenientGetPromptParams } from './prompts/get-prompt-params';
import { parsePromptArguments } from './prompts/prompt-arguments';
import type { RequestContext } from './request-context';
import type { V2Registry } from './server-registry';

/** Each class is checked and planned once per process, however many servers use it (one per request, say). */
const plans = new WorkflowPlans(parseUriTemplate);

/**
 * Options of a WorkflowServer: the 2.x SDK's `McpServer` options, observability hooks, pausing, and
 * the limits of every run (`defaultStepTimeoutMs`, `maxTraceBytes`).
 *
 * @example
 * ```ts
 * new WorkflowServer({ name: 'svc', version: '1.0.0' }, { onStep: log, defaultStepTimeoutMs: 10_000, maxTraceBytes: 2 ** 20 });
 * ```
 */
export interface WorkflowServerOptions extends McpServerOptions, WorkflowHooks, ExecutionLimits {
  /**
   * How a run that asks the client (`askUser`, `askModel`) is sealed into `requestState` on
   * protocol 2026-07-28: `keys` (32 bytes or more each; the first seals, all open — share them
   * across instances), `ttlSeconds` (default 600), `maxBytes` (default 512 KiB). Without it, a
   * random key per process is used: pausing then works only when one process serves every round.
   */
  pause?: StateSealingOptions;
  /** How long a workflow waits for one answer on a 2025 session (in place). Default 10 minutes. */
  askTimeoutMs?: number;
}

interface RegisteredWorkflow {
  readonly model: WorkflowModel;
  /** Runs the workflow for one request's parsed arguments. */
  readonly run: (args: Readonly<Record<string, string | undefined>>, ctx: RequestContext) => Promise<GetPromptResult | InputRequiredResult>;
}

/**
 * The 2.x SDK's `McpServer` that also serves decorated workflow classes as prompts. On
 * `prompts/get` it runs the workflow's deterministic steps itself — its own tools and resources,
 * in process, with the request's `ctx` — and returns the conversation trace, handing off to the
 * client's LLM where a step needs it. Serves 2025 clients (sessions) and 2026-07-28 clients
 * (stateless) alike; with a server per request, `use()` reuses each class's plan.
 *
 * @example
 * ```ts
 * import { createMcpHandler } from '@modelcontextprotocol/server';
 * import { WorkflowServer } from '@mcpflow/core/v2';
 *
 * const handler = createMcpHandler(() => {
 *   const server = new WorkflowServer({ name: 'interactive-fiction', version: '1.0.0' });
 *   server.registerTool('get_my_progress', { inputSchema: z.object({ player: z.string() }) }, handler);
 *   return server.use(GetHint);                     // structural errors throw here
 * });
 * ```
 */
export class WorkflowServer extends McpServer {
  private readonly registry: V2Registry = new ServerRegistry(parseUriTemplate, toolInputSchema);
  private readonly definitions = new DefinitionRegistry();
  private readonly workflows: RegisteredWorkflow[] = [];
  private readonly workflowPrompts = new WeakMap<RegisteredPrompt, RegisteredWorkflow>();
  private readonly execution: ExecutionOptions;
  private readonly pause?: StateSealingOptions;
  private readonly askTimeoutMs?: number;
  private getPromptInstalled = false;

  constructor(serverInfo: Implementation, options?: WorkflowServerOptions) {
    super(serverInfo, options);
    // Limits out of range throw here, when the server is made, not on the first request.
    this.execution = { onStep: options?.onStep, onRunEnd: options?.onRunEnd, ...applyLimits(options) };
    this.pause = options?.pause;
    this.askTimeoutMs = options?.askTimeoutMs;
    // Fail at start-up, not on the first paused run, when the keys are unusable.
    if (this.pause) stateSealer(this.pause);
  }

  /**
   * Registers each decorated class as a prompt, and the tool and resource definitions its steps
   * reference that are not registered yet. All classes are checked before any is registered; a
   * broken declaration throws here, synchronously: the one `WorkflowDefinitionError`, or a
   * `WorkflowValidationError` listing several. A class is checked and planned once per process.
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
    const plan = plans.plan(target);
    const asks = plan.steps.some((step) => step.asks.length > 0);
    const workflow: RegisteredWorkflow = { model, run: (args, ctx) => this.runWorkflow(plan, asks, args, ctx) };
    const handle = this.registerPrompt(
      model.name,
      { title: model.title, description: model.description, argsSchema: readWorkflowOptions(target)?.arguments as never },
      workflow.run as never,
    );
    this.workflows.push(workflow);
    this.workflowPrompts.set(handle, workflow);
  }

  /**
   * Runs a workflow for one request. On protocol 2026-07-28 a run that asks, or a retry carrying
   * `requestState`, goes by rounds (pause with `input_required`, resume from the sealed state);
   * on a 2025 session questions are asked in place.
   */
  private runWorkflow(
    plan: WorkflowPlan,
    asks: boolean,
    args: Readonly<Record<string, string | undefined>>,
    ctx: RequestContext,
  ): Promise<GetPromptResult | InputRequiredResult> {
    if (servesRounds(this.server) && (asks || ctx.mcpReq.requestState() !== undefined)) {
      return runRound(
        plan,
        args,
        new V2Host(this.registry, ctx, askChannel(this.server, ctx)),
        this.execution,
        stateSealer(this.pause),
        ctx,
      );
    }
    const host = new V2Host(this.registry, ctx, asks ? askChannel(this.server, ctx, this.askTimeoutMs) : undefined);
    return executeWorkflow(plan, args, host, this.execution) as Promise<GetPromptResult>;
  }

  /** Replaces the SDK's `prompts/get` handler (once) so every prompt's arguments get errors that name them. */
  private installGetPrompt(): void {
    if (this.getPromptInstalled) return;
    this.getPromptInstalled = true;
    this.server.removeRequestHandler('prompts/get');
    this.server.setRequestHandler('prompts/get', { params: LenientGetPromptParams }, (params, ctx) =>
      this.getPrompt(params.name, params.arguments, ctx as RequestContext),
    );
  }

  private async getPrompt(name: unknown, raw: unknown, ctx: RequestContext): Promise<GetPromptResult | InputRequiredResult> {
    // Kept to as few awaits as possible: it is on every prompts/get.
    if (typeof name !== 'string')
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `prompts/get needs 'name', the prompt's name as a string`);
    const prompt = this.registry.prompts.get(name);
    if (!prompt)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Prompt ${boundText(name, 200)} not found.${didYouMean(name, this.registry.prompts.keys())}`,
      );
    if (!prompt.enabled) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Prompt ${name} disabled`);
    const workflow = this.workflowPrompts.get(prompt);
    const parsed = parsePromptArguments(name, prompt, raw, workflow !== undefined);
    const args = parsed instanceof Promise ? await parsed : parsed;
    if (workflow) return workflow.run((args ?? {}) as Record<string, string | undefined>, ctx);
    // A plain prompt: its arguments are valid, so the SDK's own handler (which parses them again) calls it.
    return prompt.handler(raw as Record<string, unknown> | undefined, ctx) as Promise<GetPromptResult>;
  }

  static {
    // Every registration form goes through these public methods; the handles they return are kept
    // in our registry to run tools and resources in process.
    const base = McpServer.prototype;
    const own = WorkflowServer.prototype;
    own.registerTool = function (this: WorkflowServer, ...args: unknown[]) {
      return this.registry.tools.track(args[0] as string, (base.registerTool as (...a: unknown[]) => never).apply(this, args));
    } as McpServer['registerTool'];
    own.registerResource = function (this: WorkflowServer, ...args: unknown[]) {
      const [name, uriOrTemplate] = args as [string, unknown];
      const register = base.registerResource as (...a: unknown[]) => never;
      if (typeof uriOrTemplate === 'string') return this.registry.resources.track(uriOrTemplate, register.apply(this, args));
      args[args.length - 1] = decodingCallback(args[args.length - 1] as ReadResourceTemplateCallback);
      const handle = register.apply(this, args);
      this.registry.trackTemplate(name, handle);
      return handle;
    } as McpServer['registerResource'];
    own.registerPrompt = function (this: WorkflowServer, ...args: unknown[]) {
      const handle = this.registry.prompts.track(args[0] as string, (base.registerPrompt as (...a: unknown[]) => never).apply(this, args));
      this.installGetPrompt();
      return handle;
    } as McpServer['registerPrompt'];
  }
}
