import type { GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import type { CompiledStep, CompiledWorkflow } from '../compile/compile-workflow';
import type { ExecutionScope } from '../compile/resolve-source';
import type { ServerRegistry } from '../registry/server-registry';
import type { RequestExtra } from '../request-extra';
import { handoffText } from './handoff-message';
import { failureText, intentText, planText } from './messages';
import { Redactor } from './redactor';
import { runStep, type StepContext, type StepOutcome } from './run-step';
import type { ExecutionMeta, StepStatus, WorkflowHooks } from './step-events';
import { Trace } from './trace';

/** The `_meta` key of a workflow result's execution summary. */
export const EXECUTION_META_KEY = 'mcpflow/execution';

/** What an execution needs from the server it runs on. */
export interface ExecutionEnvironment {
  readonly registry: ServerRegistry;
  readonly hooks: WorkflowHooks;
}

/**
 * Executes a workflow for one `prompts/get`: instructions, intent and plan, then each step in order
 * until all complete, one hands off to the LLM, one fails, or the request is cancelled. Always
 * returns the trace so far; never throws for a step's failure.
 */
export async function executeWorkflow(
  workflow: CompiledWorkflow,
  args: Readonly<Record<string, string | undefined>>,
  extra: RequestExtra,
  environment: ExecutionEnvironment,
): Promise<GetPromptResult> {
  const { model } = workflow;
  const redactor = new Redactor();
  for (const name of workflow.sensitiveArguments) if (args[name] !== undefined) redactor.add(args[name]);
  const trace = new Trace(redactor);
  const bindings = new Map<string, unknown>();
  const scope: ExecutionScope = { args, bindings };
  const context: StepContext = { workflow, registry: environment.registry, scope, trace, redactor, extra };
  const progress = progressReporter(extra, workflow.steps.length);

  for (const instruction of model.instructions ?? []) trace.user(instruction);
  trace.user(intentText(workflow, args));
  trace.assistant(planText(workflow, environment.registry));

  const statuses: StepStatus[] = workflow.steps.map(() => 'skipped');
  let stop: { step: CompiledStep; outcome: Exclude<StepOutcome, { status: 'completed' }> } | undefined;
  for (const step of workflow.steps) {
    if (extra.signal.aborted) {
      stop = { step, outcome: { status: 'cancelled', reason: 'the request was cancelled before this step started' } };
      statuses[step.index] = 'cancelled';
      break;
    }
    const started = environment.hooks.onStep ? performance.now() : 0;
    if (environment.hooks.onStep) await notify(environment.hooks, { phase: 'start', workflow: model.name, step: step.model.name, index: step.index, total: workflow.steps.length });
    if (progress) await progress(step, 'start');
    const outcome = await runStep(step, context);
    statuses[step.index] = outcome.status;
    const reason = outcome.status === 'completed' ? undefined : trace.redact(outcome.reason);
    if (environment.hooks.onStep) await notify(environment.hooks, {
      phase: 'end',
      workflow: model.name,
      step: step.model.name,
      index: step.index,
      total: workflow.steps.length,
      status: outcome.status,
      durationMs: performance.now() - started,
      reason,
    });
    if (progress) await progress(step, 'end');
    if (outcome.status !== 'completed') {
      stop = { step, outcome };
      break;
    }
    if (step.model.binding !== undefined) bindings.set(step.model.binding, outcome.value);
  }

  if (stop?.outcome.status === 'handoff') {
    trace.assistant(handoffText(workflow, stop.step, stop.outcome.reason, scope, environment.registry));
  } else if (stop) {
    trace.user(failureText(stop.step.model.name, stop.outcome.reason));
  }
  const meta: ExecutionMeta = {
    status: stop ? stop.outcome.status : 'completed',
    steps: workflow.steps.map((step) => ({ name: step.model.name, status: statuses[step.index] })),
  };
  if (stop) {
    meta.stoppedAt = stop.step.model.name;
    meta.reason = trace.redact(stop.outcome.reason);
  }
  return { description: model.description, messages: trace.messages, _meta: { [EXECUTION_META_KEY]: meta } };
}

async function notify(hooks: WorkflowHooks, event: Parameters<NonNullable<WorkflowHooks['onStep']>>[0]): Promise<void> {
  try {
    await hooks.onStep?.(event);
  } catch (error) {
    console.error(`mcpflow: onStep hook threw for step '${event.step}' of workflow '${event.workflow}':`, error);
  }
}

/**
 * Sends `notifications/progress` when the request carries a progress token: as each step starts
 * (progress = index + 0.5, so values strictly increase) and ends (index + 1), with total = steps.
 */
function progressReporter(extra: RequestExtra, total: number): ((step: CompiledStep, phase: 'start' | 'end') => Promise<void>) | undefined {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return undefined;
  return async (step, phase) => {
    const progress = phase === 'start' ? step.index + 0.5 : step.index + 1;
    const message = `${phase === 'start' ? 'Started' : 'Finished'} step ${step.index + 1} of ${total}: ${step.model.name}`;
    try {
      await extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress, total, message } });
    } catch {
      // The client went away; the trace is still built and returned to whoever is listening.
    }
  };
}
