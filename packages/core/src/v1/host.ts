import type { RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { AskChannel, Host, ProgressUpdate, ResourceResult, ToolInput, ToolResult, ValidatedInput } from '../engine';
import type { V1Registry } from './server-registry';
import type { RequestExtra } from './request-extra';
import { readResource } from './resources/read-resource';
import { checkToolResult, invokeTool, validateToolInput } from './tools/call-tool';
import { toolInputs } from './tools/tool-inputs';

/**
 * The engine's host on SDK 1.x, for one `prompts/get`: tools and resources run through the handles
 * this server registered, with the request's `extra` (its signal replaced per try).
 *
 * @example
 * ```ts
 * await executeWorkflow(plan, args, new V1Host(registry, extra), hooks);
 * ```
 */
export class V1Host implements Host<RegisteredTool> {
  readonly signal: AbortSignal;
  readonly notifyProgress?: (update: ProgressUpdate) => Promise<void>;

  constructor(
    private readonly registry: V1Registry,
    private readonly extra: RequestExtra,
    readonly asking?: AskChannel,
  ) {
    this.signal = extra.signal;
    const progressToken = extra._meta?.progressToken;
    if (progressToken !== undefined) {
      this.notifyProgress = (update) => extra.sendNotification({ method: 'notifications/progress', params: { progressToken, ...update } });
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

  invokeTool(tool: RegisteredTool, name: string, args: unknown, signal: AbortSignal): unknown {
    return invokeTool(tool, name, args, this.withSignal(signal));
  }

  checkToolResult(tool: RegisteredTool, name: string, value: unknown): ToolResult | Promise<ToolResult> {
    return checkToolResult(tool, name, value) as ToolResult | Promise<ToolResult>;
  }

  readResource(uri: string, signal: AbortSignal): Promise<ResourceResult> {
    return readResource(this.registry, uri, this.withSignal(signal)) as Promise<ResourceResult>;
  }

  /** The request's extra with another signal; the same object when the signal is the request's own. */
  private withSignal(signal: AbortSignal): RequestExtra {
    return signal === this.extra.signal ? this.extra : { ...this.extra, signal };
  }
}
