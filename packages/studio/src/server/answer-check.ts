/** A property of an elicitation form's `requestedSchema` (MCP allows flat primitives only). */
interface FormProperty {
  readonly type?: string;
  readonly title?: string;
  readonly enum?: readonly unknown[];
  readonly oneOf?: readonly { const?: unknown }[];
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly items?: { enum?: readonly unknown[]; anyOf?: readonly { const?: unknown }[] };
}

/** An elicitation form's `requestedSchema`. */
export interface RequestedSchema {
  readonly properties?: Readonly<Record<string, FormProperty>>;
  readonly required?: readonly string[];
}

/** Why an answer does not fit the question: the field, and what it expected. */
export interface AnswerProblem {
  readonly field: string;
  readonly error: string;
}

/**
 * Checks an accepted answer's `content` against the question's `requestedSchema` before the studio
 * sends it to the server: each required field present, each value of its field's type (a string,
 * a number, an integer, a boolean, one of its choices) and within its bounds, no field the form
 * does not have. The first problem names the field and what was expected; the question stays open.
 *
 * @example
 * ```ts
 * answerProblem({ properties: { age: { type: 'integer' } }, required: ['age'] }, { age: 'ten' });
 * // { field: 'age', error: 'age must be an integer, not "ten".' }
 * ```
 */
export function answerProblem(schema: RequestedSchema, content: unknown): AnswerProblem | undefined {
  if (typeof content !== 'object' || content === null || Array.isArray(content))
    return { field: '', error: 'An accepted answer needs content: an object with a value for each field of the question.' };
  const values = content as Record<string, unknown>;
  const properties = schema.properties ?? {};
  for (const name of schema.required ?? [])
    if (!Object.hasOwn(values, name) || values[name] === undefined || values[name] === '')
      return { field: name, error: `${label(name, properties[name])} is required.` };
  for (const [name, value] of Object.entries(values)) {
    const property = Object.hasOwn(properties, name) ? properties[name] : undefined;
    if (!property) return { field: name, error: `The question has no field ${name}.` };
    const problem = valueProblem(label(name, property), property, value);
    if (problem) return { field: name, error: problem };
  }
  return undefined;
}

function label(name: string, property: FormProperty | undefined): string {
  return property?.title ? `${property.title} (${name})` : name;
}

function valueProblem(name: string, property: FormProperty, value: unknown): string | undefined {
  const shown = JSON.stringify(value);
  const choices = property.enum ?? property.oneOf?.map((choice) => choice.const);
  if (choices && !choices.includes(value))
    return `${name} must be one of ${choices.map((choice) => JSON.stringify(choice)).join(', ')}, not ${shown}.`;
  switch (property.type) {
    case 'string':
      if (typeof value !== 'string') return `${name} must be a string, not ${shown}.`;
      if (property.minLength !== undefined && value.length < property.minLength)
        return `${name} must be at least ${property.minLength} characters long.`;
      if (property.maxLength !== undefined && value.length > property.maxLength)
        return `${name} must be at most ${property.maxLength} characters long.`;
      return undefined;
    case 'number':
    case 'integer':
      if (typeof value !== 'number' || !Number.isFinite(value)) return `${name} must be a number, not ${shown}.`;
      if (property.type === 'integer' && !Number.isInteger(value)) return `${name} must be an integer, not ${shown}.`;
      if (property.minimum !== undefined && value < property.minimum) return `${name} must be at least ${property.minimum}.`;
      if (property.maximum !== undefined && value > property.maximum) return `${name} must be at most ${property.maximum}.`;
      return undefined;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `${name} must be true or false, not ${shown}.`;
    case 'array': {
      const items = property.items?.enum ?? property.items?.anyOf?.map((choice) => choice.const);
      if (!Array.isArray(value)) return `${name} must be a list of choices, not ${shown}.`;
      const wrong = items ? value.find((item) => !items.includes(item)) : undefined;
      return wrong === undefined
        ? undefined
        : `${name} must hold only ${items!.map((item) => JSON.stringify(item)).join(', ')}, not ${JSON.stringify(wrong)}.`;
    }
    default:
      return undefined;
  }
}
