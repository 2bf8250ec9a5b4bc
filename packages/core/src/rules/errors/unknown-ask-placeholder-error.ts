import { didYouMean, listNames } from '../closest-name';
import { ErrorCodes, WorkflowDefinitionError, type IssueTarget } from './workflow-definition-error';

/** An ask's text holds a `{placeholder}` that names neither a prompt argument nor (for askModel) a context entry. */
export class UnknownAskPlaceholderError extends WorkflowDefinitionError {
  readonly code = ErrorCodes.UnknownAskPlaceholder;
  constructor(workflow: string, step: string, ask: string, placeholder: string, known: readonly string[], target: IssueTarget) {
    const what = ask === 'askModel' ? 'prompt arguments and context entries' : 'prompt arguments';
    super({
      workflow,
      step,
      target,
      problem: `the ${ask}() text holds {${placeholder}}, which names none of the ${what}: ${listNames(known)}.${didYouMean(placeholder, known)}`,
      fix:
        ask === 'askModel'
          ? `use a declared argument or add '${placeholder}' to the context option (context: { ${placeholder}: fromStep('…') }); write {{${placeholder}}} for literal braces.`
          : `use a declared argument's name, declare '${placeholder}', or write {{${placeholder}}} for literal braces.`,
    });
  }
}
