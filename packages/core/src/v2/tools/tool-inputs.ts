import type { RegisteredTool, StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { readToolSchema, type JsonToolSchema, type PropertySchema, type ReadToolSchema, type ToolInput } from '../../engine';
import type { ToolInputSchema } from '../../rules';

const cache = new WeakMap<object, ReadToolSchema>();

/**
 * A tool's input schema read once (cached per schema, so `update({ paramsSchema })` is seen at
 * once): from the JSON Schema its Standard Schema gives `tools/list`, and (a zod object) its
 * properties' own schemas.
 */
function readSchema(schema: StandardSchemaWithJSON): ReadToolSchema {
  const cached = cache.get(schema);
  if (cached) return cached;
  const json = jsonSchemaOf(schema);
  const shape = (schema as { shape?: Record<string, PropertySchema> }).shape;
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

function jsonSchemaOf(schema: StandardSchemaWithJSON): JsonToolSchema {
  try {
    return schema['~standard'].jsonSchema.input({ target: 'draft-2020-12' }) as JsonToolSchema;
  } catch {
    // A schema that cannot describe itself lists no inputs; tools/list reports that failure itself.
    return {};
  }
}
