import type { ToolInput } from '../../engine';
import type { ToolInputSchema } from '../../rules';
import type { AdapterLine } from '../adapter-line';
import type { ToolHandle } from '../registry/handles';
import { readToolSchema, type ReadToolSchema } from './tool-schema/read-tool-schema';

const caches = new WeakMap<AdapterLine<unknown, unknown>, WeakMap<object, ReadToolSchema>>();

/**
 * A tool's input schema read once per line (cached per schema object, so `update({ paramsSchema })`
 * is seen at once): from the JSON Schema the line's `tools/list` sends, and the properties' own schemas.
 */
function readSchema(line: AdapterLine<unknown, unknown>, schema: object): ReadToolSchema {
  let cache = caches.get(line);
  if (!cache) caches.set(line, (cache = new WeakMap()));
  let read = cache.get(schema);
  if (!read) {
    const { json, properties } = line.describeToolSchema(schema);
    read = readToolSchema(json, properties);
    cache.set(schema, read);
  }
  return read;
}

/**
 * The inputs a tool declares, as `tools/list` describes them.
 *
 * @example
 * ```ts
 * toolInputs(line, registry.tools.get('get_weather')!); // [{ name: 'city', required: true, type: 'string' }]
 * ```
 */
export function toolInputs(line: AdapterLine<unknown, unknown>, tool: ToolHandle): readonly ToolInput[] {
  return tool.inputSchema ? readSchema(line, tool.inputSchema).inputs : [];
}

/** A tool's input schema as the argument rule reads it; undefined for a tool that takes no input. */
export function toolInputSchema(line: AdapterLine<unknown, unknown>, tool: ToolHandle): ToolInputSchema | undefined {
  return tool.inputSchema ? readSchema(line, tool.inputSchema).described : undefined;
}
