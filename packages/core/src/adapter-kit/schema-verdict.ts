/** One problem a schema found in a value, as zod and Standard Schema report it. */
export interface SchemaIssue {
  readonly path?: readonly unknown[];
  readonly message?: string;
}

/**
 * A schema's verdict on a value, as a line's own parsing gives it: the parsed value, or the issues
 * and the text the line's `tools/call` would put in its error.
 *
 * @example
 * ```ts
 * const verdict = line.parseSchema(tool.inputSchema, args);
 * if (!verdict.success) throw new Error(`Invalid arguments for tool ${name}: ${verdict.message}`);
 * ```
 */
export type SchemaVerdict =
  | { readonly success: true; readonly data: unknown }
  | { readonly success: false; readonly issues: readonly SchemaIssue[]; readonly message: string };
