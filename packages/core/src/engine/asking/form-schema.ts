import { z } from 'zod';
import type { AnswerSchemaLike } from '../../model';
import type { FormSchema } from './ask-request';

/** The keywords MCP elicitation allows on a primitive field; everything else is dropped from the wire. */
const FIELD_KEYWORDS = [
  'type',
  'title',
  'description',
  'enum',
  'enumNames',
  'format',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'default',
];
const PRIMITIVE_TYPES = ['string', 'number', 'integer', 'boolean'];

/**
 * The form a question shows: one field named `field` (its type from the answer's zod schema, or a
 * string; an enum of `choices` when there are choices), or — when the schema is a `z.object` —
 * each of the object's fields. The wire form holds only what elicitation allows; the answer is
 * still checked against the full schema when it comes back.
 */
export function formSchema(
  field: string,
  title: string,
  schema: AnswerSchemaLike | undefined,
  choices: readonly string[] | undefined,
): { form: FormSchema; whole: boolean } {
  if (choices)
    return {
      form: { type: 'object', properties: { [field]: { type: 'string', title, enum: [...choices] } }, required: [field] },
      whole: false,
    };
  const json = jsonSchemaOf(schema);
  if (json.type === 'object' && typeof json.properties === 'object' && json.properties !== null) {
    const properties: Record<string, Record<string, unknown>> = {};
    for (const [name, property] of Object.entries(json.properties as Record<string, Record<string, unknown>>))
      properties[name] = primitiveField(property, name);
    const required = Array.isArray(json.required) ? (json.required as string[]) : [];
    return { form: { type: 'object', properties, required }, whole: true };
  }
  return { form: { type: 'object', properties: { [field]: primitiveField({ title, ...json }, title) }, required: [field] }, whole: false };
}

/** An answer schema as JSON Schema (its input side); a string when there is none or zod cannot write it. */
export function jsonSchemaOf(schema: AnswerSchemaLike | undefined): Record<string, unknown> {
  if (!schema || !('_zod' in schema)) return { type: 'string' };
  try {
    return z.toJSONSchema(schema as unknown as z.ZodType, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  } catch {
    return { type: 'string' };
  }
}

function primitiveField(property: Record<string, unknown>, title: string): Record<string, unknown> {
  const field: Record<string, unknown> = {};
  for (const keyword of FIELD_KEYWORDS) if (property[keyword] !== undefined) field[keyword] = property[keyword];
  if (!PRIMITIVE_TYPES.includes(field.type as string)) field.type = 'string';
  // zod writes the safe-integer range on every z.number().int(): not a bound a form needs to show.
  if (field.minimum === Number.MIN_SAFE_INTEGER) delete field.minimum;
  if (field.maximum === Number.MAX_SAFE_INTEGER) delete field.maximum;
  field.title ??= title;
  return field;
}
