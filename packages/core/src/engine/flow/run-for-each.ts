import { DEFAULT_FOR_EACH_CONCURRENCY, DEFAULT_FOR_EACH_MAX_ITEMS } from '../../model';
import type { PlannedStep } from '../plan/plan-workflow';
import { runStep } from '../steps/run-step';
import type { StepContext } from '../steps/step-context';
import { Trace } from '../trace/trace';
import { isPromiseLike } from '../../util/is-promise-like';
import { applyTransform } from './apply-transform';
import type { FinishedWork } from './finished-work';
import type { FlowObserver } from './flow-observer';
import type { FlowOutcome } from './flow-outcome';
import { childController, hostWithSignal } from './host-with-signal';
import type { IterationsMeta } from './iterations-meta';

/**
 * Runs a `forEach` step once per element of its array, at most `concurrency` at a time, each with
 * its own part of the trace, merged in element order at the end. The value is the array of the
 * completed iterations' results (an element skipped by a `when` that reads `item()` has none).
 * The first iteration that fails or hands off stops the loop: running ones are cancelled, the rest
 * never start, and the step ends as that iteration did. The outcome says how each iteration ended.
 */
export async function runForEach(step: PlannedStep, context: StepContext, observer: FlowObserver): Promise<FlowOutcome> {
  const source = step.forEach!(context.scope);
  if (!source.ok) return { status: 'handoff', reason: `forEach has no array to run over: ${source.reason}` };
  const items = source.value;
  if (!Array.isArray(items)) {
    const reason = `forEach reads ${describe(items)}, not an array`;
    return { status: 'failed', reason, failure: reason };
  }
  const maxItems = step.model.maxItems ?? DEFAULT_FOR_EACH_MAX_ITEMS;
  if (items.length > maxItems) {
    const reason = `forEach has ${items.length} elements, more than its maxItems of ${maxItems}; raise maxItems or read a shorter array`;
    return { status: 'failed', reason, failure: reason };
  }
  const finished: (FinishedWork | undefined)[] = new Array<FinishedWork | undefined>(items.length);
  observer.loopPlanned(step, items.length);

  const { controller, release } = childController(context.host.signal);
  const host = hostWithSignal(context.host, controller.signal);
  let stop: { index: number; reason: string; failure?: string; status: 'failed' | 'handoff' | 'cancelled' } | undefined;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (!stop && !controller.signal.aborted) {
      const index = next++;
      if (index >= items.length) return;
      const iteration = { index, count: items.length };
      const started = observer.timesIterations ? performance.now() : 0;
      const starting = observer.iterationStarted(step, iteration);
      const observation = isPromiseLike(starting) ? await starting : starting;
      const trace = new Trace([]);
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
        const iterationContext = { ...context, host, scope, trace };
        outcome = await (observation ? observation.within(() => transformed(step, iterationContext)) : transformed(step, iterationContext));
      }
      finished[index] = { outcome, trace };
      if (outcome.status !== 'completed' && outcome.status !== 'skipped' && !stop) {
        stop = { index, reason: outcome.reason, failure: 'failure' in outcome ? outcome.failure : undefined, status: outcome.status };
        controller.abort();
      }
      const ending = observer.iterationEnded(step, iteration, outcome, started && performance.now() - started, observation);
      if (ending) await ending;
    }
  };
  const concurrency = Math.min(step.model.concurrency ?? DEFAULT_FOR_EACH_CONCURRENCY, items.length);
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    release();
  }

  const values: unknown[] = [];
  for (const work of finished) {
    if (!work) continue;
    context.trace.append(work.trace);
    if (work.outcome.status === 'completed') values.push(work.outcome.value);
  }
  const iterations = iterationsMeta(items.length, finished);
  if (stop) {
    const element = `element ${stop.index + 1} of ${items.length}`;
    const failure = stop.failure && `${element}: ${stop.failure}`;
    return { status: stop.status, reason: `${element}: ${stop.reason}`, failure, iterations };
  }
  if (context.host.signal.aborted) return { status: 'cancelled', reason: 'the request was cancelled during the loop', iterations };
  return { status: 'completed', value: values, iterations };
}

/** One element's step, its value mapped by the step's `transform` (no extra promise when it has none). */
function transformed(step: PlannedStep, context: StepContext): Promise<FlowOutcome> {
  const ran = runStep(step, context);
  return step.model.transform ? ran.then((outcome) => applyTransform(step, outcome, context)) : ran;
}

/**
 * What `_meta` reports of a loop: how many elements, and how each iteration that ran ended (one that
 * never started, because an earlier one stopped the loop, counts nowhere). A handoff counts as failed.
 */
function iterationsMeta(count: number, finished: readonly (FinishedWork | undefined)[]): IterationsMeta {
  const meta: IterationsMeta = { count, completed: 0, skipped: 0, failed: 0, cancelled: 0, failures: [] };
  finished.forEach((work, index) => {
    if (!work) return;
    const { outcome } = work;
    if (outcome.status === 'completed' || outcome.status === 'skipped' || outcome.status === 'cancelled') meta[outcome.status] += 1;
    else meta.failed += 1;
    if (outcome.status !== 'completed' && outcome.status !== 'skipped')
      meta.failures.push({ index, status: outcome.status, reason: outcome.reason });
  });
  return meta;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}
