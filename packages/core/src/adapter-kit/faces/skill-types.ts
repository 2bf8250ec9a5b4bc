import { codeSpan } from './skill-markup';

type JsonSchema = Readonly<Record<string, unknown>>;

/** How deep a shape is spelled out; below that, "an object" or "a list" is all it says. */
const MAX_DEPTH = 3;

/**
 * A JSON Schema in plain words, for the LLM that reads a `SKILL.md`: "text (at most 80
 * characters)", "a whole number (at least 1)", "an object with `room` (text) and `score` (a number)".
 * Only what it knows: anything else is "any value".
 *
 * @example
 * ```ts
 * typeWords({ type: 'object', properties: { room: { type: 'string' } }, required: ['room'] }); // 'an object with `room` (text)'
 * ```
 */
export function typeWords(schema: JsonSchema, depth = 0): string {
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((value) => codeSpan(JSON.stringify(value))).join(', ')}`;
  if ('const' in schema) return `exactly ${codeSpan(JSON.stringify(schema.const))}`;
  const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(alternatives) && alternatives.length) return alternatives.map((each) => typeWords(each, depth)).join(' or ');
  const bounds = boundsWords(schema);
  switch (schema.type) {
    case 'string':
      return `text${typeof schema.format === 'string' ? ` (${schema.format})` : ''}${bounds}`;
    case 'number':
      return `a number${bounds}`;
    case 'integer':
      return `a whole number${bounds}`;
    case 'boolean':
      return 'true or false';
    case 'null':
      return 'null';
    case 'array': {
      const items = schema.items as JsonSchema | undefined;
      if (depth >= MAX_DEPTH || !items || typeof items !== 'object') return `a list${bounds}`;
      const fields = items.type === 'object' ? fieldsWords(items, depth + 1) : undefined;
      return `a list of ${fields ? `objects, each with ${fields}` : typeWords(items, depth + 1)}${bounds}`;
    }
    case 'object':
      return objectWords(schema, depth);
    default:
      return 'any value';
  }
}

function objectWords(schema: JsonSchema, depth: number): string {
  const fields = fieldsWords(schema, depth);
  return fields ? `an object with ${fields}` : 'an object';
}

/** An object's fields: "`a` (text) and `b` (a number, optional)"; undefined when it names none, or too deep. */
function fieldsWords(schema: JsonSchema, depth: number): string | undefined {
  const properties = schema.properties as Readonly<Record<string, JsonSchema>> | undefined;
  if (depth >= MAX_DEPTH || !properties || Object.keys(properties).length === 0) return undefined;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const fields = Object.entries(properties).map(
    ([name, property]) => `${codeSpan(name)} (${typeWords(property, depth + 1)}${required.has(name) ? '' : ', optional'})`,
  );
  return fields.length === 1 ? fields[0] : `${fields.slice(0, -1).join(', ')} and ${fields[fields.length - 1]}`;
}

function boundsWords(schema: JsonSchema): string {
  const [low, high] =
    schema.type === 'string'
      ? [schema.minLength, schema.maxLength]
      : schema.type === 'array'
        ? [schema.minItems, schema.maxItems]
        : [schema.minimum, schema.maximum];
  const unit = schema.type === 'string' ? ' characters' : schema.type === 'array' ? ' elements' : '';
  // zod writes the safe-integer range on every z.number().int(): not a bound worth saying.
  const lowest = typeof low === 'number' && low !== Number.MIN_SAFE_INTEGER ? low : undefined;
  const highest = typeof high === 'number' && high !== Number.MAX_SAFE_INTEGER ? high : undefined;
  if (lowest !== undefined && highest !== undefined) return ` (${lowest} to ${highest}${unit})`;
  if (lowest !== undefined) return ` (at least ${lowest}${unit})`;
  if (highest !== undefined) return ` (at most ${highest}${unit})`;
  return '';
}
