import { ResourceNotFoundError, type ResourceResult } from '../../engine';
import type { AdapterLine } from '../adapter-line';
import type { ServerRegistry } from '../registry/server-registry';

/**
 * Reads a URI in process through the handler `resources/read` would pick: an exact resource first,
 * then the first template that matches (its callback receives the variables decoded).
 *
 * @example
 * ```ts
 * const { contents } = await readResource(line, registry, 'if://walkthrough/zork1', context);
 * ```
 */
export async function readResource(
  line: AdapterLine<unknown, unknown>,
  registry: ServerRegistry,
  uri: string,
  context: unknown,
): Promise<ResourceResult> {
  const match = registry.findResource(uri);
  if (!match) throw new ResourceNotFoundError();
  if (!match.handle.enabled) throw new Error(`the resource is disabled`);
  const result = (
    match.kind === 'static'
      ? await match.handle.readCallback(new URL(uri), context as never)
      : await match.handle.readCallback(new URL(uri), match.variables, context as never)
  ) as ResourceResult | undefined;
  if (line.asksForInput?.(result))
    throw new Error(`its handler asked the client for input (input_required), which a workflow step cannot answer`);
  if (!result || !Array.isArray(result.contents)) throw new Error(`its handler returned no { contents: [...] }`);
  return result;
}
