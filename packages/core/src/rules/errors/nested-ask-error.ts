import { ErrorCodes, WorkflowDefinitionError, type IssueTarget } from './workflow-definition-error';

/** An ask whose `choices` or `context` is itself an ask: a question cannot wait on another question. */
export class NestedAskError extends WorkflowDefinitionError {
  readonly code = ErrorCodes.NestedAsk;
  constructor(workflow: string, step: string, ask: string, option: string, target: IssueTarget) {
    super({
      workflow,
      step,
      target,
      problem: `${ask}() takes its '${option}' from another ask; the values a question is built from must already be known when it is asked.`,
      fix: `ask in an earlier step, @Bind its answer, and read it here with fromStep() or field().`,
    });
  }
}
