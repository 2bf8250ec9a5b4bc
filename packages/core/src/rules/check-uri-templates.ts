import { parseUriTemplate, stepActionUri, type StepModel, type WorkflowModel } from '../model';
import { InvalidUriTemplateError, UnboundUriVariableError, UnusedTemplateBindingError, UriValueTypeError } from './errors/rule-errors';
import type { IssueTarget, WorkflowDefinitionError } from './errors/workflow-definition-error';

/** The URIs a step expands (its action's, its embedded resources), each with the target an error in it points at. */
export function stepUris(step: StepModel): { uri: string; target: (start: number, end: number) => IssueTarget }[] {
  const uris: { uri: string; target: (start: number, end: number) => IssueTarget }[] = [];
  const actionUri = stepActionUri(step);
  if (actionUri !== undefined) uris.push({ uri: actionUri, target: (start, end) => ({ kind: 'stepUri', step: step.name, start, end }) });
  step.resources.forEach((uri, index) =>
    uris.push({ uri, target: (start, end) => ({ kind: 'embeddedUri', step: step.name, index, start, end }) }),
  );
  return uris;
}

/**
 * Every `{variable}` in a step's URIs has a `@TemplateBinding`, every `@TemplateBinding` fills a
 * variable with a constant that can fill one, and every URI is a readable template.
 */
export function checkUriTemplates(workflow: WorkflowModel): WorkflowDefinitionError[] {
  const errors: WorkflowDefinitionError[] = [];
  for (const step of workflow.steps) {
    const filled = new Set(step.fills.map((fill) => fill.variable));
    const used = new Set<string>();
    for (const { uri, target } of stepUris(step)) {
      const parsed = parseUriTemplate(uri);
      for (const error of parsed.errors) {
        errors.push(new InvalidUriTemplateError(workflow.name, step.name, uri, error.message, target(error.start, error.end), error.fix));
      }
      for (const expression of parsed.expressions) {
        for (const variable of expression.variables) {
          if (!filled.has(variable.name) && !used.has(variable.name)) {
            errors.push(new UnboundUriVariableError(workflow.name, step.name, variable.name, uri, target(variable.start, variable.end)));
          }
          used.add(variable.name);
        }
      }
    }
    for (const { variable, source } of step.fills) {
      if (source.kind === 'constant' && typeof source.value === 'object' && source.value !== null) {
        const value = Array.isArray(source.value) ? 'an array constant' : 'an object constant';
        errors.push(
          new UriValueTypeError(workflow.name, step.name, variable, value, {
            kind: 'templateSource',
            step: step.name,
            variable,
            part: 'value',
          }),
        );
      }
      if (!used.has(variable)) {
        errors.push(
          new UnusedTemplateBindingError(workflow.name, step.name, variable, [...used], {
            kind: 'templateVariable',
            step: step.name,
            variable,
          }),
        );
      }
    }
  }
  return errors;
}
