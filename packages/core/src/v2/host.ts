import type { RegisteredTool } from '@modelcontextprotocol/server';
import type { AskChannel, Host, ProgressUpdate, ResourceResult, ToolInput, ToolResult, ValidatedInput } from '../engine';
import type { RequestContext } from './request-context';
import { readResource } from './resources/read-resource';
import type { V2Registry } from './server-registry';
import { checkToolResult, invokeTool, validateToolInput } from './tools/call-tool';
import { toolInputs } from './tools/tool-inputs';

/**
 * The engine's host on SDK 2.x, for one `prompts/get`: tools and resources run through the handles
 * this server registered, with the request's `ctx` (its `ctx.mcpReq.signal` replaced per try).
 *
 * @example
 * ```ts
 * await executeWorkflow(plan, args, new V2Host(registry, ctx), hooks);
 * ```
 */
export class V2Host implements Host<RegisteredTool> {
  readonly signal: AbortSignal;
  readonly notifyProgress?: (update: ProgressUpdate) => Promise<void>;

  constructor(
    private readonly registry: V2Registry,
    private readonly ctx: RequestContext,
    readonly asking?: AskChannel,
  ) {
    this.signal = ctx.mcpReq.signal;
    const progressToken = ctx.mcpReq._meta?.progressToken;
    if (progressToken !== undefined) {
      this.notifyProgress = (update) => ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, ...update } });
    }
  }

  findTool(name: string): RegisteredTool | undefined {
    return this.registry.tools.get(name);
  }

  toolInputs(tool: RegisteredTool): readonly ToolInput[] {
    return toolInputs(tool);
  }

  validateToolInput(tool: RegisteredTool, name: string, args: Record<string, unknown>): ValidatedInput | Promise<ValidatedInput> {
    return validateToolInput(tool, name, args);
  }

  invokeTool(tool: RegisteredTool, _name: string, args: unknown, signal: AbortSignal): unknown {
    return invokeTool(tool, args, this.withSignal(signal));
  }

  checkToolResult(tool: RegisteredTool, name: string, value: unknown): ToolResult | Promise<ToolResult> {
    return checkToolResult(tool, name, value);
  }

  readResource(uri: string, signal: AbortSignal): Promise<ResourceResult> {
    return readResource(this.registry, uri, this.withSignal(signal)) as Promise<ResourceResult>;
  }

  /** The request's ctx with another signal; the same object when the signal is the request's own. */
  private withSignal(signal: AbortSignal): RequestContext {
    return signal === this.ctx.mcpReq.signal ? this.ctx : { ...this.ctx, mcpReq: { ...this.ctx.mcpReq, signal } };
  }
}
