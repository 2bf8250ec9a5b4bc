import type { RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { normalizeObjectSchema } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import { toJsonSchemaCompat } from '@modelcontextprotocol/sdk/server/zod-json-schema-compat.js';
import type { ToolInput } from '../../engine';

const cache = new WeakMap<object, readonly ToolInput[]>();

/**
 * The inputs a tool declares, read from the same JSON Schema `tools/list` sends (cached per schema,
 * so `update({ paramsSchema })` is seen at once).
 */
export function toolInputs(tool: RegisteredTool): readonly ToolInput[] {
  const schema = tool.inputSchema;
  if (!schema) return [];
  const cached = cache.get(schema);
  if (cached) return cached;
  const object = normalizeObjectSchema(schema);
  const json = object ? (toJsonSchemaCompat(object, { strictUnions: true, pipeStrategy: 'input' }) as JsonObjectSchema) : {};
  const required = new Set(json.required ?? []);
  const inputs = Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    required: required.has(name),
    type: typeof property.type === 'string' ? property.type : undefined,
    description: property.description,
  }));
  cache.set(schema, inputs);
  return inputs;
}

interface JsonObjectSchema {
  properties?: Record<string, { type?: unknown; description?: string }>;
  required?: string[];
}
