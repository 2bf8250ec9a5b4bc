import { ErrorCodes, WorkflowDefinitionError, type IssueTarget } from './workflow-definition-error';

/** `item()` (or `{item}` in guidance) where there is no current element: a step without `forEach`, or the `forEach` source itself. */
export class ItemOutsideForEachError extends WorkflowDefinitionError {
  readonly code = ErrorCodes.ItemOutsideForEach;
  constructor(workflow: string, step: string, where: 'step' | 'forEach', target: IssueTarget) {
    super({
      workflow,
      step,
      target,
      problem:
        where === 'forEach'
          ? `reads item() in its own forEach source; the source is read before any element exists.`
          : `reads item(), but the step has no forEach, so there is no current element.`,
      fix:
        where === 'forEach'
          ? `make forEach read an array with fromStep('…') or field('…', '…').`
          : `add forEach: fromStep('<array binding>') to step '${step}', or read the value with fromStep()/field() instead.`,
    });
  }
}
