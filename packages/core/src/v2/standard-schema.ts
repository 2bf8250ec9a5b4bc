import type { StandardSchemaV1, StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import type { JsonToolSchema, SchemaIssue, SchemaVerdict } from '../adapter-kit';

/**
 * Validates as the 2.x SDK does (`~standard.validate`), but synchronously when the schema answers
 * synchronously: no promise on a plain step's hot path.
 *
 * @example
 * ```ts
 * validateStandard(z.object({ city: z.string() }), { city: 1 }); // { success: false, message: 'city: Invalid input…' }
 * ```
 */
export function validateStandard(schema: object, value: unknown): SchemaVerdict | Promise<SchemaVerdict> {
  const result = (schema as StandardSchemaV1)['~standard'].validate(value);
  return result instanceof Promise ? result.then(toVerdict) : toVerdict(result);
}

function toVerdict(result: StandardSchemaV1.Result<unknown>): SchemaVerdict {
  if (!result.issues?.length) return { success: true, data: (result as { value: unknown }).value };
  return { success: false, issues: result.issues, message: issuesText(result.issues) };
}

/** The issues as the 2.x SDK writes them in its errors: `path.to.field: message`, comma-separated. */
function issuesText(issues: readonly SchemaIssue[]): string {
  return issues
    .map((issue) => {
      const path = (issue.path ?? []).map((segment) =>
        String(typeof segment === 'object' && segment !== null ? (segment as { key: unknown }).key : segment),
      );
      return path.length ? `${path.join('.')}: ${issue.message}` : (issue.message ?? 'invalid');
    })
    .join(', ');
}

/** The JSON Schema a Standard Schema gives `tools/list` for a tool's input. */
export function inputJsonSchema(schema: object): JsonToolSchema {
  try {
    return (schema as StandardSchemaWithJSON)['~standard'].jsonSchema.input({ target: 'draft-2020-12' }) as JsonToolSchema;
  } catch {
    // A schema that cannot describe itself lists no inputs; tools/list reports that failure itself.
    return {};
  }
}
