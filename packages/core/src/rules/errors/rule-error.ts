import { ErrorCodes, WorkflowDefinitionError, type WorkflowErrorDetails } from './workflow-definition-error';

/** The name of a rule in `ErrorCodes`, such as `'UnknownBinding'`. */
export type RuleName = keyof typeof ErrorCodes;

/** The base a rule's error class extends: its constructor takes the rule's arguments; its `code` is the rule's. */
export interface RuleErrorClass<Name extends RuleName, Args extends unknown[]> {
  new (...args: Args): WorkflowDefinitionError & { readonly code: (typeof ErrorCodes)[Name] };
  readonly prototype: WorkflowDefinitionError;
}

/**
 * The base class of one rule's error, from its entry in the table: `describe` turns the
 * constructor's arguments into the workflow, step, target, problem and fix. The subclass only
 * gives it a name users can catch.
 *
 * @example
 * ```ts
 * export class EmptyWorkflowError extends ruleError('EmptyWorkflow', (workflow: string, className: string) => ({
 *   workflow,
 *   target: { kind: 'workflowName' },
 *   problem: `class ${className} has no @Step property.`,
 *   fix: `add a step.`,
 * })) {}
 * ```
 */
export function ruleError<Name extends RuleName, Args extends unknown[]>(
  name: Name,
  describe: (...args: Args) => WorkflowErrorDetails,
): RuleErrorClass<Name, Args> {
  const code = ErrorCodes[name];
  return class extends WorkflowDefinitionError {
    readonly code = code;
    constructor(...args: Args) {
      super(describe(...args));
    }
  };
}
