import { ErrorCodes, WorkflowDefinitionError, type IssueTarget } from './workflow-definition-error';

const FIX =
  'set "experimentalDecorators": true in the compilerOptions of tsconfig.json (and of any tool that compiles your code, such as a bundler or test runner), then rebuild.';

/**
 * mcpflow's decorators are TypeScript's legacy (`experimentalDecorators`) decorators. Called as
 * standard ECMAScript decorators they would get no prototype to record on; this says so instead of
 * reflect-metadata's bare TypeError.
 */
export class DecoratorModeError extends WorkflowDefinitionError {
  readonly code = ErrorCodes.DecoratorMode;

  private constructor(workflow: string, where: string | undefined, problem: string, target: IssueTarget) {
    super({ workflow, where, target, problem, fix: FIX });
  }

  /** At run time: a decorator was called with a standard decorator context (`{ kind, name, … }`). */
  static calledAsStandard(decorator: string, context: { readonly kind?: unknown; readonly name?: unknown }): DecoratorModeError {
    const name = String(context.name);
    const subject = context.kind === 'class' ? `class ${name}` : `property '${name}'`;
    return new DecoratorModeError(
      name,
      `@${decorator} on ${subject}`,
      `it was applied as a standard ECMAScript decorator, but mcpflow's decorators are TypeScript's legacy decorators: experimentalDecorators is off where this code was compiled.`,
      { kind: 'workflowName' },
    );
  }

  /** At compile time: the program compiles a workflow with `experimentalDecorators` off. */
  static compilerOptionOff(workflow: string): DecoratorModeError {
    return new DecoratorModeError(
      workflow,
      undefined,
      `this program compiles with experimentalDecorators off, so mcpflow's decorators would run as standard decorators and fail when the class loads.`,
      { kind: 'workflowName' },
    );
  }
}
