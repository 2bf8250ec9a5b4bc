import { DEFAULT_FOR_EACH_CONCURRENCY, DEFAULT_FOR_EACH_MAX_ITEMS } from '../../model';
import type { FinishedWork, StepFlow } from './step-flow';
import type { PlannedStep } from '../plan/plan-workflow';
import { runStep } from '../steps/run-step';
import type { StepContext } from '../steps/step-context';
import { Trace } from '../trace/trace';
import { applyTransform } from './apply-transform';
import type { FlowObserver } from './flow-observer';
import type { FlowOutcome } from './flow-outcome';
import { childController, hostWithSignal } from './host-with-signal';

/**
 * Runs a `forEach` step once per element of its array, at most `concurrency` at a time, each with
 * its own part of the trace, merged in element order at the end. The value is the array of the
 * completed iterations' results (an element skipped by a `when` that reads `item()` has none).
 * The first iteration that fails or hands off stops the loop: running ones are cancelled, the rest
 * never start, and the step ends as that iteration did.
 */
export async function runForEach(step: PlannedStep, context: StepContext, flow: StepFlow, observer: FlowObserver): Promise<FlowOutcome> {
  const source = step.forEach!(context.scope);
  if (!source.ok) return { status: 'handoff', reason: `forEach has no array to run over: ${source.reason}` };
  const items = source.value;
  if (!Array.isArray(items)) return { status: 'failed', reason: `forEach reads ${describe(items)}, not an array` };
  const maxItems = step.model.maxItems ?? DEFAULT_FOR_EACH_MAX_ITEMS;
  if (items.length > maxItems) {
    return {
      status: 'failed',
      reason: `forEach has ${items.length} elements, more than its maxItems of ${maxItems}; raise maxItems or read a shorter array`,
    };
  }
  const loop = (flow.loop ??= { count: items.length, iterations: {} });
  observer.loopPlanned(step, items.length);

  const { controller, release } = childController(context.host.signal);
  const host = hostWithSignal(context.host, controller.signal);
  let stop: { index: number; work: FinishedWork } | undefined;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (!stop && !controller.signal.aborted) {
      const index = next++;
      if (index >= items.length) return;
      if (loop.iterations[index]) continue; // finished before the run was paused
      const iteration = { index, count: items.length };
      const started = performance.now();
      await observer.iterationStarted(step, iteration);
      const messages: FinishedWork['messages'] = [];
      const scope = {
        args: context.scope.args,
        bindings: context.scope.bindings,
        answers: context.scope.answers,
        iteration: { index, item: items[index] },
      };
      let outcome: FlowOutcome;
      if (step.when?.readsItem && !step.when.holds(scope)) {
        outcome = { status: 'skipped', reason: `when ${step.when.text} is false` };
      } else {
        outcome = await applyTransform(
          step,
          await runStep(step, { ...context, host, scope, trace: new Trace(messages, context.redactor) }),
        );
      }
      const work: FinishedWork =
        outcome.status === 'completed'
          ? { status: 'completed', value: outcome.value, messages }
          : { status: outcome.status, reason: outcome.reason, messages };
      loop.iterations[index] = work;
      if (work.status !== 'completed' && work.status !== 'skipped' && !stop) {
        stop = { index, work };
        controller.abort();
      }
      await observer.iterationEnded(step, iteration, work.status, performance.now() - started, work.reason);
    }
  };
  const concurrency = Math.min(step.model.concurrency ?? DEFAULT_FOR_EACH_CONCURRENCY, items.length);
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    release();
  }

  const values: unknown[] = [];
  for (let index = 0; index < items.length; index += 1) {
    const work = loop.iterations[index];
    if (!work) continue;
    context.trace.messages.push(...work.messages);
    work.messages = [];
    if (work.status === 'completed') values.push(work.value);
  }
  if (stop) {
    const { index, work } = stop;
    return { status: work.status as 'failed' | 'handoff' | 'cancelled', reason: `element ${index + 1} of ${items.length}: ${work.reason}` };
  }
  if (context.host.signal.aborted) return { status: 'cancelled', reason: 'the request was cancelled during the loop' };
  return { status: 'completed', value: values };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}
