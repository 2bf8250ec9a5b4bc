import type { JsonSchemaTypes } from './json-schema-accepts-string';

/** The values a JSON Schema admits, as far as its types and literals say: `'any'` when it does not say. */
export type JsonSchemaReading = 'any' | { readonly types: ReadonlySet<string>; readonly values: readonly unknown[] };

/**
 * What a JSON Schema admits: its `type`s (`integer` read as `number`, as TypeScript has one number
 * type), or its `enum`/`const` values, across `anyOf`/`oneOf`. A schema it cannot read (`not`,
 * `allOf`, `$ref`, no type) admits anything, so a comparison never refuses what it cannot see.
 *
 * @example
 * ```ts
 * readJsonSchema({ enum: ['metric', 'imperial'] }); // { types: Set {}, values: ['metric', 'imperial'] }
 * ```
 */
export function readJsonSchema(schema: JsonSchemaTypes | boolean | undefined): JsonSchemaReading {
  if (schema === undefined || schema === true) return 'any';
  if (schema === false) return { types: new Set(), values: [] };
  if (schema.const !== undefined) return { types: new Set(), values: [schema.const] };
  if (schema.enum !== undefined) return { types: new Set(), values: [...schema.enum] };
  const members = schema.anyOf ?? schema.oneOf;
  if (members) {
    const readings = members.map(readJsonSchema);
    if (readings.some((reading) => reading === 'any')) return 'any';
    const known = readings as Exclude<JsonSchemaReading, 'any'>[];
    return { types: new Set(known.flatMap((reading) => [...reading.types])), values: known.flatMap((reading) => reading.values) };
  }
  if (schema.allOf || schema.not !== undefined || schema.type === undefined) return 'any';
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]) as unknown[];
  return { types: new Set(types.map((type) => (type === 'integer' ? 'number' : String(type)))), values: [] };
}

/** Whether every value `answer` admits is admitted by `input` (a schema that cannot be read fits). */
export function readingFits(answer: JsonSchemaReading, input: JsonSchemaReading): boolean {
  if (answer === 'any' || input === 'any') return true;
  const admitsValue = (value: unknown) =>
    input.types.has(jsonTypeOf(value)) || input.values.some((each) => JSON.stringify(each) === JSON.stringify(value));
  return [...answer.types].every((type) => input.types.has(type)) && answer.values.every(admitsValue);
}

/** A reading in TypeScript's words: `number`, `"metric" | "imperial"`, `string | null`. */
export function readingText(reading: JsonSchemaReading): string {
  if (reading === 'any') return 'any value';
  const parts = [...reading.types, ...reading.values.map((value) => JSON.stringify(value))];
  return parts.length ? parts.join(' | ') : 'no value';
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
