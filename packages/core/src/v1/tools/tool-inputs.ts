import type { RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { normalizeObjectSchema } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import { toJsonSchemaCompat } from '@modelcontextprotocol/sdk/server/zod-json-schema-compat.js';
import { describeInputSchema, type JsonObjectSchema, type JsonSchemaTypes, type PropertySchema, type ToolInput } from '../../engine';
import type { ToolInputSchema } from '../../rules';

interface ReadSchema {
  readonly inputs: readonly ToolInput[];
  readonly described: ToolInputSchema;
}

const cache = new WeakMap<object, ReadSchema>();

/**
 * A tool's input schema read once (cached per schema object, so `update({ paramsSchema })` is seen
 * at once): from the same JSON Schema `tools/list` sends, and the zod object's own properties.
 */
function readSchema(schema: NonNullable<RegisteredTool['inputSchema']>): ReadSchema {
  const cached = cache.get(schema);
  if (cached) return cached;
  const object = normalizeObjectSchema(schema);
  const json = object ? (toJsonSchemaCompat(object, { strictUnions: true, pipeStrategy: 'input' }) as JsonToolSchema) : {};
  const required = new Set(json.required ?? []);
  const inputs = Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    required: required.has(name),
    type: typeof property.type === 'string' ? property.type : undefined,
    description: property.description,
  }));
  const shape = (object as { shape?: Record<string, PropertySchema> } | undefined)?.shape;
  const read = { inputs, described: describeInputSchema(json, shape) };
  cache.set(schema, read);
  return read;
}

/** The inputs a tool declares, as `tools/list` describes them. */
export function toolInputs(tool: RegisteredTool): readonly ToolInput[] {
  return tool.inputSchema ? readSchema(tool.inputSchema).inputs : [];
}

/** A tool's input schema as the argument rule reads it; undefined for a tool that takes no input. */
export function toolInputSchema(tool: RegisteredTool): ToolInputSchema | undefined {
  return tool.inputSchema ? readSchema(tool.inputSchema).described : undefined;
}

interface JsonToolSchema extends JsonObjectSchema {
  readonly properties?: Record<string, JsonSchemaTypes & { readonly description?: string }>;
  readonly required?: string[];
}
