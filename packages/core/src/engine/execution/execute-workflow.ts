import type { PromptResult } from '../content';
import type { Host } from '../host';
import type { WorkflowPlan } from '../plan/plan-workflow';
import type { StepContext } from '../steps/step-context';
import { handoffText } from '../trace/handoff-message';
import { errorMessage, failureText, instructionResourceFailureText, intentText, planText } from '../trace/messages';
import { Redactor } from '../trace/redactor';
import { Trace } from '../trace/trace';
import { createExecutionState, type ExecutionState } from './execution-state';
import { WorkProgress } from './report-step';
import { runGroup } from './run-group';
import { stepMeta } from './step-meta';
import { StepRunner } from './step-runner';
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
  await openTrace(state, context);
  await advanceExecution(state, context, hooks);
  return executionResult(state, context);
}

/** What the steps of a run share, writing into its state. */
export function stepContext(plan: WorkflowPlan, state: ExecutionState, host: Host): StepContext {
  const redactor = new Redactor(state.secrets);
  return { plan, host, scope: state, trace: new Trace(state.messages, redactor), redactor };
}

/**
 * The trace's opening: instructions and instruction resources, the user's intent, the assistant's
 * plan. An instruction resource that cannot be read is named in the trace; the steps still run.
 */
async function openTrace(state: ExecutionState, { plan, host, trace, redactor }: StepContext): Promise<void> {
  for (const name of plan.sensitiveArguments) if (state.args[name] !== undefined) redactor.add(state.args[name]);
  for (const instruction of plan.model.instructions ?? []) trace.user(instruction);
  for (const uri of plan.model.resources) {
    try {
      trace.embed(await host.readResource(uri, host.signal));
    } catch (error) {
      trace.user(instructionResourceFailureText(uri, errorMessage(error)));
    }
  }
  trace.user(intentText(plan, state.args));
  trace.assistant(planText(plan, host));
}

/**
 * Runs steps from the state's position until the last completes or one stops the run, advancing
 * the state as each step (or parallel group) ends: statuses, bindings, the position.
 */
export async function advanceExecution(state: ExecutionState, context: StepContext, hooks: WorkflowHooks): Promise<void> {
  const { plan, host, trace } = context;
  const runner = new StepRunner(plan, state, hooks, host.notifyProgress ? new WorkProgress(host.notifyProgress, plan.steps.length) : undefined, trace);
  for (const group of plan.groups) {
    if (group[0].index < state.position) continue;
    if (host.signal.aborted) {
      state.statuses[group[0].index] = 'cancelled';
      state.stop = { step: group[0].index, status: 'cancelled', reason: 'the request was cancelled before this step started' };
      return;
    }
    const stop = group.length === 1 ? runner.settle(group[0], await runner.outcome(group[0], context, true), trace) : await runGroup(group, runner, state, context);
    if (stop) {
      state.stop = stop;
      return;
    }
    state.position += group.length;
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
    steps: plan.steps.map((step) => stepMeta(step.model.name, state.statuses[step.index], state.flow[step.index], trace)),
  };
  if (stop) {
    meta.stoppedAt = plan.steps[stop.step].model.name;
    meta.reason = trace.redact(stop.reason);
  }
  return { description: plan.model.description, messages: state.messages, _meta: { [EXECUTION_META_KEY]: meta } };
}
