import type { RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { normalizeObjectSchema } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import { toJsonSchemaCompat } from '@modelcontextprotocol/sdk/server/zod-json-schema-compat.js';
import { readToolSchema, type JsonToolSchema, type PropertySchema, type ReadToolSchema, type ToolInput } from '../../engine';
import type { ToolInputSchema } from '../../rules';

const cache = new WeakMap<object, ReadToolSchema>();

/**
 * A tool's input schema read once (cached per schema object, so `update({ paramsSchema })` is seen
 * at once): from the same JSON Schema `tools/list` sends, and the zod object's own properties.
 */
function readSchema(schema: NonNullable<RegisteredTool['inputSchema']>): ReadToolSchema {
  const cached = cache.get(schema);
  if (cached) return cached;
  const object = normalizeObjectSchema(schema);
  const json = object ? (toJsonSchemaCompat(object, { strictUnions: true, pipeStrategy: 'input' }) as JsonToolSchema) : {};
  const shape = (object as { shape?: Record<string, PropertySchema> } | undefined)?.shape;
  const read = readToolSchema(json, shape);
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
