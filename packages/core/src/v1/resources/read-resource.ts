import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import type { V1Registry } from '../server-registry';
import type { RequestExtra } from '../request-extra';

/**
 * Reads a URI in process through the handler `resources/read` would pick: an exact resource first,
 * then the first template that matches (its callback receives the variables decoded).
 */
export async function readResource(registry: V1Registry, uri: string, extra: RequestExtra): Promise<ReadResourceResult> {
  const match = registry.findResource(uri);
  if (!match) throw new Error(`no registered resource or resource template serves it`);
  if (!match.handle.enabled) throw new Error(`the resource is disabled`);
  const result =
    match.kind === 'static'
      ? await match.handle.readCallback(new URL(uri), extra)
      : await match.handle.readCallback(new URL(uri), match.variables, extra);
  if (!result || !Array.isArray(result.contents)) throw new Error(`its handler returned no { contents: [...] }`);
  return result;
}
