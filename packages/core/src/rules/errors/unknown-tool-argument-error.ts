import { didYouMean, listNames } from '../closest-name';
import { ErrorCodes, WorkflowDefinitionError } from './workflow-definition-error';

/** A step maps an argument the tool's input schema does not have (it would be dropped or refused). */
export class UnknownToolArgumentError extends WorkflowDefinitionError {
  readonly code = ErrorCodes.UnknownToolArgument;
  constructor(workflow: string, step: string, tool: string, argument: string, inputs: readonly string[]) {
    super({
      workflow,
      step,
      target: { kind: 'argSource', step, arg: argument, part: 'name' },
      problem: `maps argument '${argument}', but tool ${tool} has no such input. Its inputs: ${listNames(inputs)}.${didYouMean(argument, inputs)}`,
      fix: `rename the key in args to one of the tool's inputs, or remove it.`,
    });
  }
}
