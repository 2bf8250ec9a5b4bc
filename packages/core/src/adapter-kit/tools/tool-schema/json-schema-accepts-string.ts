/** The part of a JSON Schema that says which JSON types it admits. */
export interface JsonSchemaTypes {
  readonly type?: unknown;
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly anyOf?: readonly JsonSchemaTypes[];
  readonly oneOf?: readonly JsonSchemaTypes[];
  readonly allOf?: readonly JsonSchemaTypes[];
  readonly not?: unknown;
}

/**
 * Whether a JSON Schema admits some string: a `type` of or including `string`, an `enum`/`const`
 * holding one, or no type constraint at all. A schema it cannot read (`not`, a `$ref`) counts as
 * admitting one, so the check never refuses a mapping the tool would take.
 *
 * @example
 * ```ts
 * jsonSchemaAcceptsString({ type: ['number', 'null'] }); // false
 * jsonSchemaAcceptsString({ enum: ['metric', 'imperial'] }); // true
 * ```
 */
export function jsonSchemaAcceptsString(schema: JsonSchemaTypes | boolean | undefined): boolean {
  if (schema === undefined || typeof schema === 'boolean') return schema !== false;
  if (schema.const !== undefined) return typeof schema.const === 'string';
  if (schema.enum !== undefined) return schema.enum.some((value) => typeof value === 'string');
  if (schema.anyOf) return schema.anyOf.some(jsonSchemaAcceptsString);
  if (schema.oneOf) return schema.oneOf.some(jsonSchemaAcceptsString);
  if (schema.allOf && !schema.allOf.every(jsonSchemaAcceptsString)) return false;
  if (schema.type === undefined) return true;
  return Array.isArray(schema.type) ? schema.type.includes('string') : schema.type === 'string';
}
