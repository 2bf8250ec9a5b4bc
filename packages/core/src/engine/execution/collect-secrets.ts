import type { WorkflowPlan } from '../plan/plan-workflow';
import type { ExecutionScope } from '../plan/resolve-source';
import type { Redactor } from '../redaction/redactor';

/**
 * Teaches the redactor every sensitive value the run can know now: sensitive prompt arguments, the
 * sensitive constants of the workflows it runs as steps, and
 * the value of every sensitive step argument that resolves against the bindings so far, whether or
 * not its step has run. So a token an earlier step returned is known as a secret as soon as it is
 * bound (login → token), and everything emitted after that, earlier messages included, hides it.
 *
 * @example
 * ```ts
 * collectSecrets(plan, state, redactor); // after each binding, and before the result is emitted
 * ```
 */
export function collectSecrets(plan: WorkflowPlan, scope: ExecutionScope, redactor: Redactor): void {
  if (plan.sensitiveArguments.size === 0 && plan.sensitiveStepArguments.length === 0 && plan.calledConstants.length === 0) return;
  for (const value of plan.calledConstants) redactor.add(value, 'server');
  for (const name of plan.sensitiveArguments) {
    const value = Object.hasOwn(scope.args, name) ? scope.args[name] : undefined;
    if (value !== undefined) redactor.add(value, 'client');
  }
  for (const argument of plan.sensitiveStepArguments) {
    const resolved = argument.resolve(scope);
    if (resolved.ok) redactor.add(resolved.value, argument.fromClient ? 'client' : 'server');
  }
}
