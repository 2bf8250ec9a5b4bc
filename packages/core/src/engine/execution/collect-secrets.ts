import type { WorkflowPlan } from '../plan/plan-workflow';
import type { ExecutionScope } from '../plan/resolve-source';
import { Redactor } from '../redaction/redactor';
import type { RunSecrets } from '../redaction/run-secrets';

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

/**
 * Hands what a run run as a step of another (a sub-workflow) learned back to the outer run's
 * secrets: the values of its sensitive step arguments that a tool produced (a token its login step
 * returned; constants the outer plan knows already, and the outer run's own values it has), and
 * what it learned from answers and loop elements — as learned secrets of the outer run, which its
 * state keeps (sealed) as it keeps its own, so a later step of the outer run that meets one
 * redacts it too. Secrets the server holds go back only to an outer run that marks its client's
 * text apart (it runs this workflow by class, see `CalledSecrets.held`).
 *
 * @example
 * ```ts
 * if (host.inheritedSecrets) handBackSecrets(plan, state, host.inheritedSecrets);
 * ```
 */
export function handBackSecrets(plan: WorkflowPlan, scope: ExecutionScope & { readonly secrets: RunSecrets }, outer: RunSecrets): void {
  const redactor = new Redactor(outer);
  // A secret the server holds is searched for only where the client's text is marked apart (no
  // oracle): an outer run that calls this one by class marks it; one that calls it by name may not.
  const holds = redactor.marking;
  for (const argument of plan.sensitiveStepArguments) {
    if (!holds || argument.fromClient || argument.source.kind === 'constant' || argument.source.kind === 'promptArg') continue;
    const resolved = argument.resolve(scope);
    if (resolved.ok && resolved.value !== undefined) redactor.learn(resolved.value, 'server');
  }
  for (const { value, origin } of scope.secrets.learned) if (holds || origin === 'client') redactor.learn(value, origin);
}
