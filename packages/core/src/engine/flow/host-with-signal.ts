import type { SignalSource } from '../cancellation/signal-source';
import type { ResourceResult, ToolResult } from '../content';
import type { Host, HostTool, ToolInput, ToolRun, ValidatedInput } from '../host';
import type { RunSecrets } from '../redaction/run-secrets';

/**
 * The same host with another signal: the steps of a parallel group and the iterations of a loop
 * get one they can be cancelled by together (a failing sibling), still aborted with the request.
 * Every call goes to the adapter's own host (so its private state keeps working); a plain class
 * rather than a proxy, because every iteration of a loop calls through it several times.
 *
 * @example
 * ```ts
 * const { controller, release } = childController(context.host.signal);
 * const host = hostWithSignal(context.host, controller.signal); // host.signal === controller.signal
 * ```
 */
export function hostWithSignal(host: Host, signal: AbortSignal): Host {
  return new HostWithSignal(host, signal);
}

/** Forwards every member of `Host` (a new one belongs here too) but `signal`. */
class HostWithSignal implements Host {
  constructor(
    private readonly host: Host,
    readonly signal: AbortSignal,
  ) {}

  get notifyProgress(): Host['notifyProgress'] {
    return this.host.notifyProgress;
  }

  get asking(): Host['asking'] {
    return this.host.asking;
  }

  get observer(): Host['observer'] {
    return this.host.observer;
  }

  get tools(): Host['tools'] {
    return this.host.tools;
  }

  findTool(name: string): HostTool | undefined {
    return this.host.findTool(name);
  }

  workflowOf(tool: HostTool): string | undefined {
    return this.host.workflowOf?.(tool);
  }

  toolInputs(tool: HostTool): readonly ToolInput[] {
    return this.host.toolInputs(tool);
  }

  validateToolInput(tool: HostTool, name: string, args: Record<string, unknown>): ValidatedInput | PromiseLike<ValidatedInput> {
    return this.host.validateToolInput(tool, name, args);
  }

  invokeTool(tool: HostTool, name: string, args: unknown, signal: SignalSource, run: ToolRun, secrets?: RunSecrets): unknown {
    return this.host.invokeTool(tool, name, args, signal, run, secrets);
  }

  checkToolResult(tool: HostTool, name: string, value: unknown): ToolResult | PromiseLike<ToolResult> {
    return this.host.checkToolResult(tool, name, value);
  }

  readResource(uri: string, signal: SignalSource): Promise<ResourceResult> {
    return this.host.readResource(uri, signal);
  }
}

/** A controller aborted with `parent` (and by its owner); `release` stops listening to the parent. */
export function childController(parent: AbortSignal): { controller: AbortController; release: () => void } {
  const controller = new AbortController();
  if (parent.aborted) controller.abort(parent.reason);
  const onAbort = () => controller.abort(parent.reason);
  parent.addEventListener('abort', onAbort, { once: true });
  return { controller, release: () => parent.removeEventListener('abort', onAbort) };
}
