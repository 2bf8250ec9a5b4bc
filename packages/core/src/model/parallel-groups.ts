import type { StepModel } from './workflow-model';

/**
 * Splits steps into the units that run one after another: a run of adjacent `parallel` steps is one
 * group whose steps run concurrently; every other step is a group of its own.
 *
 * @example
 * ```ts
 * parallelGroups(steps).map((group) => group.map((step) => step.name)); // [['list'], ['a', 'b', 'c'], ['report']]
 * ```
 */
export function parallelGroups<T extends Pick<StepModel, 'parallel'>>(steps: readonly T[]): T[][] {
  const groups: T[][] = [];
  for (const step of steps) {
    const last = groups[groups.length - 1];
    if (step.parallel && last?.[0]?.parallel) last.push(step);
    else groups.push([step]);
  }
  return groups;
}
