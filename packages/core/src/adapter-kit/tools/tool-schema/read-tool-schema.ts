import type { ToolInputSchema } from '../../../rules';
import type { ToolInput } from '../../../engine';
import { describeInputSchema, type JsonObjectSchema, type PropertySchema } from './describe-input-schema';
import type { JsonSchemaTypes } from './json-schema-accepts-string';

/** A tool's input schema as JSON Schema, with what `tools/list` shows of each property. */
export interface JsonToolSchema extends JsonObjectSchema {
  readonly properties?: Record<string, JsonSchemaTypes & { readonly description?: string }>;
  readonly required?: readonly string[];
}

/** What the engine reads of a tool's input schema: its inputs, and the view the argument rule checks. */
export interface ReadToolSchema {
  readonly inputs: readonly ToolInput[];
  readonly described: ToolInputSchema;
}

/**
 * Reads a tool's input schema from the JSON Schema `tools/list` sends and (where the schema library
 * exposes them) its properties' own schemas. Each SDK line's adapter produces the JSON Schema its
 * own way and caches the result per schema object; what is read from it is decided here, once.
 *
 * @example
 * ```ts
 * const { inputs } = readToolSchema({ properties: { city: { type: 'string' } }, required: ['city'] });
 * // inputs: [{ name: 'city', required: true, type: 'string', description: undefined }]
 * ```
 */
export function readToolSchema(json: JsonToolSchema, properties?: Readonly<Record<string, PropertySchema | undefined>>): ReadToolSchema {
  const required = new Set(json.required ?? []);
  const inputs = Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    required: required.has(name),
    type: typeof property.type === 'string' ? property.type : undefined,
    description: property.description,
  }));
  return { inputs, described: describeInputSchema(json, properties) };
}
