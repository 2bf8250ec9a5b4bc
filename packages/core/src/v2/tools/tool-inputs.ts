import type { RegisteredTool, StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import type { ToolInput } from '../../engine';

const cache = new WeakMap<object, readonly ToolInput[]>();

/**
 * The inputs a tool declares, read from the JSON Schema its Standard Schema gives `tools/list`
 * (cached per schema, so `update({ paramsSchema })` is seen at once).
 */
export function toolInputs(tool: RegisteredTool): readonly ToolInput[] {
  const schema = tool.inputSchema;
  if (!schema) return [];
  const cached = cache.get(schema);
  if (cached) return cached;
  const json = jsonSchemaOf(schema);
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

function jsonSchemaOf(schema: StandardSchemaWithJSON): JsonObjectSchema {
  try {
    return schema['~standard'].jsonSchema.input({ target: 'draft-2020-12' }) as JsonObjectSchema;
  } catch {
    // A schema that cannot describe itself lists no inputs; tools/list reports that failure itself.
    return {};
  }
}
