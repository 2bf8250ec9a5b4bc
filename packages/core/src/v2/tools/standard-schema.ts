import type { StandardSchemaV1 } from '@modelcontextprotocol/server';
import type { SchemaIssue } from '../../shared/prompt-argument-problems';

/** A Standard Schema's verdict: the parsed value, or its issues. */
export type SchemaResult =
  { readonly success: true; readonly data: unknown } | { readonly success: false; readonly issues: readonly SchemaIssue[] };

/**
 * Validates as the 2.x SDK does (`~standard.validate`), but synchronously when the schema answers
 * synchronously: no promise on a plain step's hot path.
 */
export function validateWith(schema: StandardSchemaV1, value: unknown): SchemaResult | Promise<SchemaResult> {
  const result = schema['~standard'].validate(value);
  return result instanceof Promise ? result.then(toSchemaResult) : toSchemaResult(result);
}

function toSchemaResult(result: StandardSchemaV1.Result<unknown>): SchemaResult {
  return result.issues?.length ? { success: false, issues: result.issues } : { success: true, data: (result as { value: unknown }).value };
}

/** The issues as the 2.x SDK writes them in its errors: `path.to.field: message`, comma-separated. */
export function issuesText(issues: readonly SchemaIssue[]): string {
  return issues
    .map((issue) => {
      const path = (issue.path ?? []).map((segment) =>
        String(typeof segment === 'object' && segment !== null ? (segment as { key: unknown }).key : segment),
      );
      return path.length ? `${path.join('.')}: ${issue.message}` : (issue.message ?? 'invalid');
    })
    .join(', ');
}
