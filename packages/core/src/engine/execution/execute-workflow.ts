import type { PromptResult } from '../content';
import type { Host } from '../host';
import type { WorkflowPlan } from '../plan/plan-workflow';
import { collectSecrets } from '../redaction/collect-secrets';
import { runStep } from '../steps/run-step';
import type { StepContext } from '../steps/step-context';
import { boundTrace } from '../trace/bound-trace';
import { handoffText } from '../trace/handoff-message';
import { failureText, intentText, planText } from '../trace/messages';
import { Redactor } from '../trace/redactor';
import { Trace } from '../trace/trace';
import { applyLimits, type ExecutionLimits } from './execution-limits';
import { createExecutionState, type ExecutionState } from './execution-state';
import { notifyStep, progressReporter } from './report-step';
import { EXECUTION_META_KEY, type ExecutionMeta, type WorkflowHooks } from './step-events';

/** What a server gives every run: its hooks and its limits (defaults apply to limits left out). */
export interface ExecutionOptions extends WorkflowHooks, ExecutionLimits {}

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
  options: ExecutionOptions,
): Promise<PromptResult> {
  const state = createExecutionState(plan, args);
  const context = stepContext(plan, state, host, options);
  openTrace(state, context);
  await advanceExecution(state, context, options);
  return executionResult(state, context);
}

/** What the steps of a run share, writing into its state. */
export function stepContext(plan: WorkflowPlan, state: ExecutionState, host: Host, limits: ExecutionLimits = {}): StepContext {
  const redactor = new Redactor(state.secrets);
  return { plan, host, scope: state, trace: new Trace(state.messages, redactor), redactor, limits: applyLimits(limits) };
}

/** The trace's opening: instructions, the user's intent, the assistant's plan. */
function openTrace(state: ExecutionState, { plan, host, trace, redactor }: StepContext): void {
  collectSecrets(plan, state, redactor);
  for (const instruction of plan.model.instructions) trace.user(instruction);
  trace.user(intentText(plan, state.args));
  trace.assistant(planText(plan, host));
}

/**
 * Runs steps from the state's position until the last completes or one stops the run, advancing
 * the state as each step ends: its status, its binding, the secrets it reveals, the position.
 */
export async function advanceExecution(state: ExecutionState, context: StepContext, hooks: WorkflowHooks): Promise<void> {
  const { plan, host, trace, redactor } = context;
  const workflow = plan.model.name;
  const total = plan.steps.length;
  const progress = host.notifyProgress ? progressReporter(host.notifyProgress, total, redactor) : undefined;
  while (state.position < total) {
    const step = plan.steps[state.position];
    if (host.signal.aborted) {
      state.statuses[step.index] = 'cancelled';
      state.stop = { step: step.index, status: 'cancelled', reason: 'the request was cancelled before this step started' };
      return;
    }
    const started = hooks.onStep ? performance.now() : 0;
    if (hooks.onStep) await notifyStep(hooks, { phase: 'start', workflow, step: step.model.name, index: step.index, total }, redactor);
    if (progress) await progress(step, 'start');
    const outcome = await runStep(step, context);
    state.statuses[step.index] = outcome.status;
    if (outcome.status === 'completed' && step.model.binding !== undefined) {
      state.bindings[step.model.binding] = outcome.value;
      // A later sensitive argument may read this value (login → token): it is a secret from now on.
      collectSecrets(plan, state, redactor);
    }
    if (hooks.onStep) await notifyStep(hooks, {
      phase: 'end',
      workflow,
      step: step.model.name,
      index: step.index,
      total,
      status: outcome.status,
      durationMs: performance.now() - started,
      reason: outcome.status === 'completed' ? undefined : trace.redact(outcome.reason),
    }, redactor);
    if (progress) await progress(step, 'end');
    if (outcome.status !== 'completed') {
      state.stop = { step: step.index, status: outcome.status, reason: outcome.reason };
      return;
    }
    state.position += 1;
  }
}

/**
 * The `prompts/get` result of a finished run: its trace, closed by a handoff or failure message, and
 * `_meta` — every string of it redacted by the run's complete set of secrets (so a secret learned at
 * step 3 is hidden in step 1's messages too), and the whole kept within `maxTraceBytes`.
 */
export function executionResult(state: ExecutionState, { plan, host, trace, redactor, limits }: StepContext): PromptResult {
  collectSecrets(plan, state, redactor);
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
    meta.reason = stop.reason;
  }
  const redacted = redactor.redactDeep({ description: plan.model.description, messages: state.messages, meta });
  const reserved = Buffer.byteLength(JSON.stringify({ description: redacted.description, _meta: { [EXECUTION_META_KEY]: redacted.meta } })) + 256;
  const bounded = boundTrace(redacted.messages, limits.maxTraceBytes, reserved, plan.model.instructions.length + 2);
  if (bounded.truncation) redacted.meta.truncated = bounded.truncation;
  return { description: redacted.description, messages: bounded.messages, _meta: { [EXECUTION_META_KEY]: redacted.meta } };
}
