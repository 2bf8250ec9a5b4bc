import { z } from 'zod';
import type { AnswerSchemaLike } from '../../../model';
import type { ToolInputSchema } from '../../../rules';
import { jsonSchemaAcceptsString, type JsonSchemaTypes } from './json-schema-accepts-string';
import { readJsonSchema, readingFits, readingText } from './json-schema-fit';

/** A tool's input schema as JSON Schema (what `tools/list` shows). */
export interface JsonObjectSchema {
  readonly properties?: Record<string, JsonSchemaTypes>;
  readonly additionalProperties?: unknown;
}

/** One property's own schema, where the line's schema library exposes it (zod 3 and 4 alike). */
export interface PropertySchema {
  safeParse(value: unknown): { success: boolean; error?: { issues?: readonly { message: string }[]; message?: string } };
}

/**
 * The view of a tool's input schema the argument rule reads, from its JSON Schema and (where the
 * schema library exposes them) its properties' own schemas: both SDK lines build it the same way.
 * A property whose schema cannot be parsed synchronously (an async refinement) is not checked.
 *
 * @example
 * ```ts
 * const schema = describeInputSchema({ properties: { days: { type: 'integer' } } }, { days: z.number().int() });
 * schema.acceptsString('days'); // false
 * ```
 */
export function describeInputSchema(
  json: JsonObjectSchema,
  properties?: Readonly<Record<string, PropertySchema | undefined>>,
): ToolInputSchema {
  const shape = json.properties ?? {};
  return {
    inputs: Object.keys(shape),
    open: json.additionalProperties !== undefined && json.additionalProperties !== false,
    acceptsString: (name) => jsonSchemaAcceptsString(shape[name]),
    compareValues(name, given) {
      const gives = given ? readJsonSchema(outputSchema(given)) : readJsonSchema({ type: 'string' });
      const takes = readJsonSchema(shape[name]);
      if (gives === 'any' || takes === 'any') return undefined;
      return { fits: readingFits(gives, takes), takes: readingText(takes), gives: readingText(gives) };
    },
    valueProblem(name, value) {
      const property = properties?.[name];
      if (!property || typeof property.safeParse !== 'function') return undefined;
      try {
        const parsed = property.safeParse(value);
        if (parsed.success) return undefined;
        return parsed.error?.issues?.map((issue) => issue.message).join('; ') || parsed.error?.message || 'the input schema rejects it';
      } catch {
        return undefined;
      }
    },
  };
}

/** Each schema's output side, written once: a server per request compares the same workflow argument schemas on every request. */
const outputSchemas = new WeakMap<object, JsonSchemaTypes | undefined>();

/** A schema (an ask's answer, a workflow argument) as JSON Schema of what it gives (its output side); undefined when zod 4 cannot write it. */
function outputSchema(schema: AnswerSchemaLike): JsonSchemaTypes | undefined {
  if (!('_zod' in schema)) return undefined;
  if (outputSchemas.has(schema)) return outputSchemas.get(schema);
  let written: JsonSchemaTypes | undefined;
  try {
    written = z.toJSONSchema(schema as unknown as z.ZodType, { io: 'output', unrepresentable: 'any' }) as JsonSchemaTypes;
  } catch {
    written = undefined;
  }
  outputSchemas.set(schema, written);
  return written;
}
