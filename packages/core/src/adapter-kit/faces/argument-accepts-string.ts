import { z } from 'zod';
import { readWorkflowOptions, type WorkflowClass } from '../../model/read-workflow';
import { jsonSchemaAcceptsString } from '../tools/tool-schema/json-schema-accepts-string';

/** Strings a prompt argument might be given: a schema that takes none of them (and no string by its JSON Schema) takes no string. */
const SAMPLE_STRINGS = ['1', 'true', 'x', ''];

/** The answer for each argument schema already read: `use()` of a server per request asks again for the same schemas. */
const answers = new WeakMap<z.ZodType, boolean>();

/**
 * Whether a workflow's argument schema takes a string, as a prompt argument always is: its JSON
 * Schema admits one, or it parses one (a `z.coerce.number()` converts `'1'`). A schema that cannot
 * be read counts as taking one, so the check never refuses an argument a prompt could fill.
 *
 * @example
 * ```ts
 * argumentAcceptsString(Order, 'quantity'); // false for z.number(), true for z.coerce.number()
 * ```
 */
export function argumentAcceptsString(target: WorkflowClass, argument: string): boolean {
  const schema = (readWorkflowOptions(target)?.arguments as Record<string, unknown> | undefined)?.[argument] as z.ZodType | undefined;
  if (!schema || typeof schema.safeParse !== 'function') return true;
  let accepts = answers.get(schema);
  if (accepts === undefined) {
    accepts = schemaAcceptsString(schema);
    answers.set(schema, accepts);
  }
  return accepts;
}

function schemaAcceptsString(schema: z.ZodType): boolean {
  try {
    if (jsonSchemaAcceptsString(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as never)) return true;
  } catch {
    return true;
  }
  return SAMPLE_STRINGS.some((sample) => {
    try {
      return schema.safeParse(sample).success;
    } catch {
      return true;
    }
  });
}
