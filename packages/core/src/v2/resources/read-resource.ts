import { isInputRequiredResult, type ReadResourceResult } from '@modelcontextprotocol/server';
import type { V2Registry } from '../server-registry';
import type { RequestContext } from '../request-context';

/**
 * Reads a URI in process through the handler `resources/read` would pick: an exact resource first,
 * then the first template that matches (its callback receives the variables decoded).
 */
export async function readResource(registry: V2Registry, uri: string, ctx: RequestContext): Promise<ReadResourceResult> {
  const match = registry.findResource(uri);
  if (!match) throw new Error(`no registered resource or resource template serves it`);
  if (!match.handle.enabled) throw new Error(`the resource is disabled`);
  const result =
    match.kind === 'static'
      ? await match.handle.readCallback(new URL(uri), ctx)
      : await match.handle.readCallback(new URL(uri), match.variables, ctx);
  if (isInputRequiredResult(result))
    throw new Error(`its handler asked the client for input (input_required), which a workflow step cannot answer`);
  if (!result || !Array.isArray(result.contents)) throw new Error(`its handler returned no { contents: [...] }`);
  return result;
}
