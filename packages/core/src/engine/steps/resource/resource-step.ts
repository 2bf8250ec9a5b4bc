import type { ResourceAction } from '../../../model/actions/resource-action';
import type { Host } from '../../host';
import type { PlannedStep } from '../../plan/plan-workflow';
import type { ExecutionScope } from '../../plan/resolve-source';
import { pendingReason } from '../pending-reason';
import type { StepKind } from '../step-kind';
import { runResourceStep } from './run-resource-step';

/** A step that reads a resource (its URI template's variables filled); its value is the text read. */
export const resourceStep: StepKind<ResourceAction> = {
  kind: 'resource',
  run: runResourceStep,
  planLine: (step, action) => `${step.model.name}: read resource ${action.uri}`,
  handoffDetails,
};

function handoffDetails(
  step: PlannedStep,
  _action: ResourceAction,
  scope: ExecutionScope,
  _host: Host,
  client: (text: string) => string,
): string {
  const pending: string[] = [];
  for (const fill of step.fills) {
    const resolved = fill.resolve(scope);
    if (!resolved.ok) pending.push(`{${fill.variable}} (${pendingReason(fill.source, resolved.reason, scope, client)})`);
  }
  return pending.length ? `\n   URI variables still to resolve: ${pending.join('; ')}` : '';
}
