import type { ResourceResult, ToolResult } from '../content';
import type { SignalSource } from '../cancellation/signal-source';
import type { Host, HostTool } from '../host';
import { contentBlockProblem, describe, isObject, resourceContentsProblem } from './check-content';
import { findUnrepresentable } from './find-unrepresentable';
import { MalformedResultError } from './malformed-result-error';
import { isPromiseLike } from '../../util/is-promise-like';

/**
 * The host's check of a tool's return (`tools/call`'s: a result, its output schema), then the
 * protocol's shape of every content block and JSON-representability of the whole. Every step that
 * calls a tool goes through here, so a malformed result fails its step and the trace is kept.
 */
export function checkedToolResult(host: Host, tool: HostTool, name: string, value: unknown): ToolResult | PromiseLike<ToolResult> {
  const checked = host.checkToolResult(tool, name, value);
  return isPromiseLike(checked) ? checked.then((result) => validToolResult(name, result)) : validToolResult(name, checked);
}

/** Reads a resource through the host and checks its contents as `resources/read` would send them. */
export async function checkedResourceRead(host: Host, uri: string, signal: SignalSource): Promise<ResourceResult> {
  return validResourceResult(uri, await host.readResource(uri, signal));
}

function validToolResult(name: string, result: ToolResult): ToolResult {
  const problem = toolResultProblem(result);
  if (problem) throw new MalformedResultError(`tool ${name} returned a malformed result: ${problem}`);
  const unrepresentable =
    findUnrepresentable(result.structuredContent, 'structuredContent') ?? findUnrepresentable(result.content, 'content');
  if (unrepresentable) throw new MalformedResultError(`tool ${name} returned a result that cannot be sent as JSON: ${unrepresentable}`);
  return result;
}

/** `content[0]`, `content[1]`, …: the paths of the first blocks, written once rather than per result. */
const BLOCK_PATHS = Array.from({ length: 8 }, (_, index) => `content[${index}]`);

function toolResultProblem(result: ToolResult): string | undefined {
  for (let index = 0; index < result.content.length; index += 1) {
    const problem = contentBlockProblem(result.content[index], BLOCK_PATHS[index] ?? `content[${index}]`);
    if (problem) return problem;
  }
  if (result.structuredContent !== undefined && !isObject(result.structuredContent)) {
    return `structuredContent is ${describe(result.structuredContent)}, not an object`;
  }
  if (result.isError !== undefined && typeof result.isError !== 'boolean') return `isError is ${describe(result.isError)}, not a boolean`;
  return undefined;
}

function validResourceResult(uri: string, result: ResourceResult): ResourceResult {
  for (let index = 0; index < result.contents.length; index += 1) {
    const problem = resourceContentsProblem(result.contents[index], `contents[${index}]`);
    if (problem) throw new MalformedResultError(`resource ${uri} returned malformed contents: ${problem}`);
  }
  const unrepresentable = findUnrepresentable(result.contents, 'contents');
  if (unrepresentable) throw new MalformedResultError(`resource ${uri} returned contents that cannot be sent as JSON: ${unrepresentable}`);
  return result;
}
