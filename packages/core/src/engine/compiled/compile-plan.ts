import type { WorkflowPlan } from '../plan/plan-workflow';
import { compileToolStep, type CompiledStep } from './compile-tool-step';

/**
 * Which engine runs steps: the compiled runner, or (`MCPFLOW_ENGINE=interpreter`, read once as the
 * engine loads) the generic interpreter it is tested against. An internal switch for the tests
 * and the benchmarks, not an option: both give byte-identical results (see CONTRIBUTING.md).
 */
let interpreting = process.env.MCPFLOW_ENGINE === 'interpreter';

/** Each plan's compiled steps, built on its first run and kept as long as the plan. */
const compiledPlans = new WeakMap<WorkflowPlan, readonly (CompiledStep | undefined)[]>();

/** No step compiled: what the interpreter runs. */
const NONE: readonly (CompiledStep | undefined)[] = [];

/**
 * A plan's compiled steps by index: a closure for each tool step, undefined for a step of another
 * kind (a resource step, a kind only a test adds), which the interpreter runs. Empty under `MCPFLOW_ENGINE=interpreter`.
 *
 * @example
 * ```ts
 * const outcome = await (compiledSteps(plan)[step.index] ?? ((context) => runStep(step, context)))(context);
 * ```
 */
export function compiledSteps(plan: WorkflowPlan): readonly (CompiledStep | undefined)[] {
  if (interpreting) return NONE;
  let steps = compiledPlans.get(plan);
  if (steps === undefined) {
    // By each step's own index: a plan may hold a part of a workflow's steps (a test runs one step of three).
    const compiled: (CompiledStep | undefined)[] = [];
    for (const step of plan.steps) compiled[step.index] = step.action.kind === 'tool' ? compileToolStep(step, step.action) : undefined;
    compiledPlans.set(plan, (steps = compiled));
  }
  return steps;
}

/**
 * Runs the steps of the runs that start from now on by the interpreter (true) or compiled (false):
 * for the dual-engine test, which runs every scenario through both. Returns the previous choice.
 */
export function interpretSteps(interpret: boolean): boolean {
  const previous = interpreting;
  interpreting = interpret;
  return previous;
}
