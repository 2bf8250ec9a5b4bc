import { InvalidServerOptionError } from '../../engine';
import { WorkflowDefinitionError, WorkflowValidationError } from '../../rules';
import { InvalidServingOptionError } from './errors/invalid-serving-option-error';
import { MissingServingPackageError } from './errors/missing-serving-package-error';
import { UnguardedBindingError } from './errors/unguarded-binding-error';

/** mcpflow's own errors whose message says what is wrong and how to fix it: their stack would only add noise. */
const SELF_EXPLAINED = [InvalidServerOptionError, InvalidServingOptionError, UnguardedBindingError, MissingServingPackageError];

/**
 * How a serving failure reads on stderr: a broken workflow as its class, code and message (which
 * names the workflow, the step and the fix), each of several on its own line; an option out of
 * range as its class and message; any other error with its stack, since it may be a bug in the
 * factory.
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
  if (SELF_EXPLAINED.some((type) => error instanceof type)) return `${(error as Error).name}: ${(error as Error).message}`;
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
