import { ErrorCodes, WorkflowDefinitionError, type IssueTarget } from './workflow-definition-error';

/** An ask with a value it cannot take: an empty question, zero attempts, choices that are not a list. */
export class InvalidAskOptionError extends WorkflowDefinitionError {
  readonly code = ErrorCodes.InvalidAskOption;
  constructor(workflow: string, step: string, ask: string, problem: string, fix: string, target: IssueTarget) {
    super({ workflow, step, target, problem: `${ask}() ${problem}`, fix });
  }
}
