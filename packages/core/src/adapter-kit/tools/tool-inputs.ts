import type { ToolInput } from '../../engine';
import type { ToolInputSchema } from '../../rules';
import type { AdapterLine } from '../adapter-line';
import type { ToolHandle } from '../registry/handles';
import { readToolSchema, type ReadToolSchema } from './tool-schema/read-tool-schema';

/** A schema as one line read it, and as the other read it too, if it did (a process can serve both lines). */
interface SchemaRead {
  readonly line: AdapterLine<unknown, unknown>;
  readonly read: ReadToolSchema;
  readonly other?: SchemaRead;
}

const reads = new WeakMap<object, SchemaRead>();

/** On an object schema made at registration by `z.object(shape)` alone: the raw shape (`{ city: z.string() }`) it was made of. */
const MADE_OF = Symbol('mcpflow.madeOfShape');

/**
 * Records that `schema` is `z.object(shape)` and nothing more, as both SDK lines make of a raw shape
 * given to `registerTool` (anew at each registration): a server per request registering the same
 * shape reads it once, not once per request. Anything else (a schema given as is) is not recorded.
 * Kept on the schema itself (made for this registration only), so nothing grows per registration.
 *
 * @example
 * ```ts
 * madeOfShape(handle.inputSchema, config.inputSchema);
 * ```
 */
export function madeOfShape(schema: unknown, shape: unknown): void {
  if (!isObject(schema) || !isObject(shape) || schema === shape || '~standard' in shape || '_def' in shape || '_zod' in shape) return;
  if (Object.isExtensible(schema) && !Object.hasOwn(schema, MADE_OF)) Object.defineProperty(schema, MADE_OF, { value: shape });
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

/**
 * A tool's input schema read once per line (cached per schema object, so `update({ paramsSchema })`
 * is seen at once, or per the raw shape it was made of): from the JSON Schema the line's
 * `tools/list` sends, and the properties' own schemas.
 */
function readSchema(line: AdapterLine<unknown, unknown>, schema: object): ReadToolSchema {
  const key = (schema as { [MADE_OF]?: object })[MADE_OF] ?? schema;
  const cached = reads.get(key);
  if (cached?.line === line) return cached.read;
  if (cached?.other?.line === line) return cached.other.read;
  const { json, properties } = line.describeToolSchema(schema);
  const read = readToolSchema(json, properties);
  reads.set(key, { line, read, other: cached });
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
