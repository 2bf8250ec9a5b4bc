import type { PlannedStep } from '../plan/plan-workflow';
import type { ExecutionScope } from '../plan/resolve-source';
import { expandUri, type FilledUri } from '../uri/expand-uri';
import { checkedResourceRead } from '../results/checked-results';
import { stepTimeoutMs, type StepContext } from './step-context';
import { stepKindOf } from './step-kind-of';
import { failedOutcome, type StepOutcome } from './step-outcome';
import { StepCancelledError, runTryLazily } from './step-policy';
import { ownRecord } from '../../util/own-record';

const NO_VARIABLES: Readonly<Record<string, string>> = Object.freeze({});

/**
 * Runs one step: guidance, embedded resources, then its kind's action. Not `async` itself: a plain
 * tool step goes straight to the tool, without another promise on the way.
 */
export function runStep(step: PlannedStep, context: StepContext): Promise<StepOutcome> {
  const { trace, scope } = context;
  if (step.guidance) trace.assistant(step.guidance(scope, context.redactor.client));
  if (step.resources.length === 0 && step.fills.length === 0) return stepKindOf(step.action).run(step, step.action, context, NO_VARIABLES);
  return runWithUris(step, context);
}

async function runWithUris(step: PlannedStep, context: StepContext): Promise<StepOutcome> {
  const variables = resolveVariables(step, context.scope);
  const shown = context.redactor.marking ? shownVariables(step, variables.values, context.redactor.client) : undefined;
  for (const uri of step.resources) {
    if (uri.variables.some((name) => !Object.hasOwn(variables.values, name))) continue;
    const expanded = expandUri(uri, variables.values, shown);
    if (!expanded.ok) return { status: 'handoff', reason: expanded.reason };
    const failure = await embedResource(step, uri.template, expanded, context);
    if (failure) return failure;
  }
  if (variables.problems.length) return { status: 'handoff', reason: variables.problems.join('; ') };

  return stepKindOf(step.action).run(step, step.action, context, variables.values, shown);
}

/** The variables with the client's own values marked, for the URIs the trace shows. */
function shownVariables(
  step: PlannedStep,
  values: Readonly<Record<string, string>>,
  client: (text: string) => string,
): Record<string, string> {
  const shown = ownRecord<string>();
  for (const name of Object.keys(values)) shown[name] = values[name];
  for (const fill of step.fills)
    if (fill.fromClient && Object.hasOwn(shown, fill.variable)) shown[fill.variable] = client(shown[fill.variable]);
  return shown;
}

function resolveVariables(step: PlannedStep, scope: ExecutionScope): { values: Record<string, string>; problems: string[] } {
  // No prototype: a variable may be named like an Object.prototype member ({constructor}).
  const values = ownRecord<string>();
  const problems: string[] = [];
  for (const fill of step.fills) {
    const resolved = fill.resolve(scope);
    if (!resolved.ok) {
      problems.push(`{${fill.variable}} has no value: ${resolved.reason}`);
    } else if (typeof resolved.value === 'string') {
      values[fill.variable] = resolved.value;
    } else if (typeof resolved.value === 'number' || typeof resolved.value === 'boolean') {
      values[fill.variable] = String(resolved.value);
    } else {
      const kind = resolved.value === null ? 'null' : Array.isArray(resolved.value) ? 'an array' : `an ${typeof resolved.value}`;
      problems.push(`{${fill.variable}} would be ${kind}, and a URI variable takes a string, number or boolean`);
    }
  }
  return { values, problems };
}

async function embedResource(step: PlannedStep, template: string, uri: FilledUri, context: StepContext): Promise<StepOutcome | undefined> {
  const { host } = context;
  try {
    const result = await runTryLazily(host, stepTimeoutMs(step, context), (signal) => checkedResourceRead(host, uri.uri, signal));
    context.trace.embed(result, uri);
    return undefined;
  } catch (error) {
    const cause = host.signal.aborted ? new StepCancelledError() : error;
    return failedOutcome(cause, `could not read resource ${uri.shown}`, ': ', `resource ${template}`);
  }
}
