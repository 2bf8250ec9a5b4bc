import type { PromptResult } from '../content';
import type { Host } from '../host';
import type { WorkflowPlan } from '../plan/plan-workflow';
import { runStep } from '../steps/run-step';
import type { StepContext } from '../steps/step-context';
import { handoffText } from '../trace/handoff-message';
import { failureText, intentText, planText } from '../trace/messages';
import { Redactor } from '../trace/redactor';
import { Trace } from '../trace/trace';
import { createExecutionState, type ExecutionState } from './execution-state';
import { notifyStep, progressReporter } from './report-step';
import { EXECUTION_META_KEY, type ExecutionMeta, type WorkflowHooks } from './step-events';

/**
 * Executes a workflow for one `prompts/get`: instructions, intent and plan, then each step in order
 * until all complete, one hands off to the LLM, one fails, or the request is cancelled. Always
 * returns the trace so far; never throws for a step's failure.
 *
 * @example
 * ```ts
 * const result = await executeWorkflow(plan, { player: 'ada' }, host, { onStep: console.log });
 * ```
 */
export async function executeWorkflow(
  plan: WorkflowPlan,
  args: Readonly<Record<string, string | undefined>>,
  host: Host,
  hooks: WorkflowHooks,
): Promise<PromptResult> {
  const state = createExecutionState(plan, args);
  const context = stepContext(plan, state, host);
  openTrace(state, context);
  await advanceExecution(state, context, hooks);
  return executionResult(state, context);
}

/** What the steps of a run share, writing into its state. */
export function stepContext(plan: WorkflowPlan, state: ExecutionState, host: Host): StepContext {
  const redactor = new Redactor(state.secrets);
  return { plan, host, scope: state, trace: new Trace(state.messages, redactor), redactor };
}

/** The trace's opening: instructions, the user's intent, the assistant's plan. */
function openTrace(state: ExecutionState, { plan, host, trace, redactor }: StepContext): void {
  for (const name of plan.sensitiveArguments) if (state.args[name] !== undefined) redactor.add(state.args[name]);
  for (const instruction of plan.model.instructions) trace.user(instruction);
  trace.user(intentText(plan, state.args));
  trace.assistant(planText(plan, host));
}

/**
 * Runs steps from the state's position until the last completes or one stops the run, advancing
 * the state as each step ends: its status, its binding, the position.
 */
export async function advanceExecution(state: ExecutionState, context: StepContext, hooks: WorkflowHooks): Promise<void> {
  const { plan, host, trace } = context;
  const workflow = plan.model.name;
  const total = plan.steps.length;
  const progress = host.notifyProgress ? progressReporter(host.notifyProgress, total) : undefined;
  while (state.position < total) {
    const step = plan.steps[state.position];
    if (host.signal.aborted) {
      state.statuses[step.index] = 'cancelled';
      state.stop = { step: step.index, status: 'cancelled', reason: 'the request was cancelled before this step started' };
      return;
    }
    const started = hooks.onStep ? performance.now() : 0;
    if (hooks.onStep) await notifyStep(hooks, { phase: 'start', workflow, step: step.model.name, index: step.index, total });
    if (progress) await progress(step, 'start');
    const outcome = await runStep(step, context);
    state.statuses[step.index] = outcome.status;
    if (hooks.onStep) await notifyStep(hooks, {
      phase: 'end',
      workflow,
      step: step.model.name,
      index: step.index,
      total,
      status: outcome.status,
      durationMs: performance.now() - started,
      reason: outcome.status === 'completed' ? undefined : trace.redact(outcome.reason),
    });
    if (progress) await progress(step, 'end');
    if (outcome.status !== 'completed') {
      state.stop = { step: step.index, status: outcome.status, reason: outcome.reason };
      return;
    }
    if (step.model.binding !== undefined) state.bindings[step.model.binding] = outcome.value;
    state.position += 1;
  }
}

/** The `prompts/get` result of a finished run: its trace, closed by a handoff or failure message, and `_meta`. */
export function executionResult(state: ExecutionState, { plan, host, trace }: StepContext): PromptResult {
  const { stop } = state;
  if (stop?.status === 'handoff') {
    trace.assistant(handoffText(plan, plan.steps[stop.step], stop.reason, state, host));
  } else if (stop) {
    trace.user(failureText(plan.steps[stop.step].model.name, stop.reason));
  }
  const meta: ExecutionMeta = {
    status: stop ? stop.status : 'completed',
    steps: plan.steps.map((step) => ({ name: step.model.name, status: state.statuses[step.index] })),
  };
  if (stop) {
    meta.stoppedAt = plan.steps[stop.step].model.name;
    meta.reason = trace.redact(stop.reason);
  }
  return { description: plan.model.description, messages: state.messages, _meta: { [EXECUTION_META_KEY]: meta } };
}
