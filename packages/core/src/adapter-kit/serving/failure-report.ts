import { WorkflowDefinitionError, WorkflowValidationError } from '../../rules';

/**
 * How a serving failure reads on stderr: a broken workflow as its class, code and message (which
 * names the workflow, the step and the fix), each of several on its own line; any other error with
 * its stack, since it may be a bug in the factory.
 *
 * @example
 * ```ts
 * describeServingFailure(error);
 * // "UnregisteredToolError 91016: Workflow 'get_hint', step 'progress': calls tool 'get_progress', … Fix: …"
 * ```
 */
export function describeServingFailure(error: unknown): string {
  if (error instanceof WorkflowDefinitionError) return `${error.name} ${error.code}: ${error.message}`;
  if (error instanceof WorkflowValidationError)
    return `${error.errors.length} workflow definition errors:\n${error.errors.map((each) => `  - ${describeServingFailure(each)}`).join('\n')}`;
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}

/**
 * Where serving reports failures no client sees, unless told otherwise (`onerror`): stderr, never
 * stdout (the stdio protocol channel), in {@link describeServingFailure}'s words.
 *
 * @example
 * ```ts
 * const onerror = options.onerror ?? reportServingFailure;
 * ```
 */
export function reportServingFailure(error: Error): void {
  console.error(`mcpflow: ${describeServingFailure(error)}`);
}
