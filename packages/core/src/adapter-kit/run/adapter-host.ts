import type {
  AskChannel,
  Host,
  ProgressUpdate,
  ResourceResult,
  RunObserver,
  RunSecrets,
  RunState,
  SignalSource,
  ToolInput,
  ToolResult,
  ToolRun,
  ToolsRevision,
  ValidatedInput,
} from '../../engine';
import { TIMING_META_KEY } from '../../engine';
import type { AdapterLine } from '../adapter-line';
import type { ToolHandle } from '../registry/handles';
import type { ServerRegistry } from '../registry/server-registry';
import { readResource } from '../resources/read-resource';
import { checkToolResult, invokeTool, validateToolInput } from '../tools/call-tool';
import { toolInputs } from '../tools/tool-inputs';
import { carrySecrets } from './carried-secrets';
import { RUN_META_KEY } from './run-meta';

/**
 * The engine's host for one request, on either SDK line: tools and resources run through the
 * handles this server registered, with the request's context (its signal replaced per try).
 * Progress goes to the client when the request asked for it, unless `reportsProgress` is false (a
 * workflow run as a step of another: the outer run reports its own, and a client's progress only
 * ever increases).
 *
 * @example
 * ```ts
 * await executeWorkflow(plan, args, new AdapterHost(line, registry, context), options);
 * ```
 */
export class AdapterHost<Context> implements Host<ToolHandle> {
  readonly signal: AbortSignal;
  notifyProgress?: (update: ProgressUpdate) => Promise<void>;
  /** The request asked for step durations in `_meta` (`_meta["mcpflow/timing"]: true`). */
  readonly timing: boolean;
  /** Set by a durable task round: each completed step's state, to checkpoint in the task. */
  checkpoint?: (state: RunState) => void | PromiseLike<void>;
  /** Set by a durable task round: before each step, proves the round still holds its task (else aborts its signal). */
  beforeStep?: (state: RunState) => void | PromiseLike<void>;
  private runContext?: { readonly run: ToolRun; readonly meta: Readonly<Record<string, unknown>>; context?: Context };

  constructor(
    private readonly line: AdapterLine<unknown, Context>,
    private readonly registry: ServerRegistry,
    private readonly context: Context,
    readonly asking?: AskChannel,
    reportsProgress = true,
    readonly observer?: RunObserver,
    /** A workflow run as a step of another: the outer run's secrets (see `Host.inheritedSecrets`). */
    readonly inheritedSecrets?: RunSecrets,
  ) {
    this.signal = line.request.signal(context);
    this.timing = line.request.meta(context)?.[TIMING_META_KEY] === true;
    const progressToken = reportsProgress ? line.request.progressToken(context) : undefined;
    if (progressToken !== undefined) this.notifyProgress = (update) => line.request.notifyProgress(context, progressToken, update);
  }

  get tools(): ToolsRevision {
    return this.registry.tools;
  }

  findTool(name: string): ToolHandle | undefined {
    return this.registry.tools.get(name);
  }

  workflowOf(tool: ToolHandle): string | undefined {
    return this.registry.workflowTools.get(tool);
  }

  toolInputs(tool: ToolHandle): readonly ToolInput[] {
    return toolInputs(this.line, tool);
  }

  validateToolInput(tool: ToolHandle, name: string, args: Record<string, unknown>): ValidatedInput | Promise<ValidatedInput> {
    return validateToolInput(this.line, tool, name, args);
  }

  invokeTool(tool: ToolHandle, name: string, args: unknown, signal: SignalSource, run: ToolRun, secrets?: RunSecrets): unknown {
    return invokeTool(tool, name, args, this.toolContext(signal, run, secrets));
  }

  checkToolResult(tool: ToolHandle, name: string, value: unknown): ToolResult | Promise<ToolResult> {
    return checkToolResult(this.line, tool, name, value);
  }

  readResource(uri: string, signal: SignalSource): Promise<ResourceResult> {
    return readResource(this.line, this.registry, uri, this.withSignal(signal));
  }

  /** The request's context with its signal from `source`; the same object when the source is this host (the request's own signal). */
  private withSignal(source: SignalSource): Context {
    return source === this ? this.context : this.line.request.withSignal(this.context, source);
  }

  /**
   * What a tool's handler gets: the request's context with the run and the calling step in its
   * `_meta` (whatever the client sent under that key is replaced), and with another signal only
   * for a try that has its own — one copy of the context a call. The `_meta` is built once per
   * step (a host serves one run, and a `forEach` step's items share it), as is the whole context
   * for calls on the request's own signal. The run's secrets go with it, to a workflow the tool
   * runs in turn.
   */
  private toolContext(source: SignalSource, run: ToolRun, secrets: RunSecrets | undefined): Context {
    let held = this.runContext;
    if (held?.run.id !== run.id || held.run.step !== run.step) {
      held = { run, meta: withEntry(this.line.request.meta(this.context), RUN_META_KEY, carrySecrets(run, secrets)) };
      this.runContext = held;
    }
    if (source !== this) return this.line.request.forHandler(this.context, held.meta, source);
    return (held.context ??= this.line.request.forHandler(this.context, held.meta, undefined));
  }
}

/**
 * `meta` with `key` set to `value`, a new object. Copied key by key: V8 makes a spread copy plus
 * a new key (`{ ...meta, [key]: value }`) a slow map transition (about 1 µs, measured on Node 20).
 */
function withEntry(meta: Readonly<Record<string, unknown>> | undefined, key: string, value: unknown): Record<string, unknown> {
  const entries: Record<string, unknown> = {};
  if (meta) for (const name of Object.keys(meta)) define(entries, name, meta[name]);
  define(entries, key, value);
  return entries;
}

/** Sets an own property as a spread would: a `__proto__` key (JSON.parse makes one) stays a key, not the prototype. */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}
