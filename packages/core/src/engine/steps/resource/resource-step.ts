import type { PlannedStep } from '../../plan/plan-workflow';
import type { ExecutionScope } from '../../plan/resolve-source';
import { pendingReason } from '../../trace/pending-reason';
import type { StepKind } from '../step-kind';
import { runResourceStep } from './run-resource-step';

/** A step that reads a resource (its URI template filled by template bindings); its value is the text read. */
export const resourceStep: StepKind = {
  name: 'resource',
  appliesTo: (step) => step.resource !== undefined,
  run: runResourceStep,
  summary: (step) => `${step.model.name}: read resource ${step.model.resource}`,
  handoffDetails,
};

function handoffDetails(step: PlannedStep, scope: ExecutionScope): string {
  const pending: string[] = [];
  for (const binding of step.templateBindings) {
    const resolved = binding.resolve(scope);
    if (!resolved.ok) pending.push(`{${binding.variable}} (${pendingReason(binding.source, resolved.reason, scope)})`);
  }
  return pending.length ? `\n   URI variables still to resolve: ${pending.join('; ')}` : '';
}
