import { stepTool, type WorkflowModel } from '../model';
import { stepUris } from './check-uri-templates';
import { UnregisteredResourceError, UnregisteredToolError } from './errors/rule-errors';
import type { WorkflowDefinitionError } from './errors/workflow-definition-error';

/** What the server has registered, as the registration rule needs to see it. */
export interface RegistrationLookup {
  hasTool(name: string): boolean;
  toolNames(): string[];
  /** True when some registered resource or resource template serves this URI (template). */
  servesUri(uriTemplate: string): boolean;
  /** Registered resource URIs and template patterns, for the message. */
  resourcePatterns(): string[];
}

/** Every tool a step calls, every resource it reads or embeds and every instruction resource is registered on the server. */
export function checkRegistrations(workflow: WorkflowModel, lookup: RegistrationLookup): WorkflowDefinitionError[] {
  const errors: WorkflowDefinitionError[] = [];
  workflow.resources.forEach((uri, index) => {
    if (!lookup.servesUri(uri)) {
      errors.push(
        new UnregisteredResourceError(workflow.name, undefined, uri, lookup.resourcePatterns(), {
          kind: 'workflowResource',
          index,
          start: 0,
          end: uri.length,
        }),
      );
    }
  });
  for (const step of workflow.steps) {
    const tool = stepTool(step);
    if (tool !== undefined && !lookup.hasTool(tool)) {
      errors.push(new UnregisteredToolError(workflow.name, step.name, tool, lookup.toolNames()));
    }
    for (const { uri, target } of stepUris(step)) {
      if (!lookup.servesUri(uri)) {
        errors.push(new UnregisteredResourceError(workflow.name, step.name, uri, lookup.resourcePatterns(), target(0, uri.length)));
      }
    }
  }
  return errors;
}
