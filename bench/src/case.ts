import type { RunOptions } from './run-options';

/**
 * One row of the table `npm run bench` prints: a figure beside its target. `met` is whether the
 * target is met; a row without a target (a figure only reported, such as an ablation's) has none.
 */
export interface Figure {
  benchmark: string;
  figure: string;
  target: string;
  met?: boolean;
}

/**
 * A benchmark. To add one, write a file in `cases/` exporting a `BenchCase` and add it to the list
 * in `cases.ts`; `npm run bench -- <name>` then runs it alone, and `npm run bench -- --smoke` runs
 * it in CI with a few iterations (`sized` picks them), so a case that throws fails the build.
 *
 * @example
 * export const echoCase: BenchCase = {
 *   name: 'echo',
 *   async run(options) {
 *     const { a, b } = await sideBySide({ a: runA, b: runB }, sized(options, { warmup: 500, rounds: 20, batch: 200 }));
 *     const ratio = a.median / b.median;
 *     return { result: { a, b, ratio }, figures: [{ benchmark: 'echo', figure: ratioFigure('a', a, 'b', b), target: 'ratio ≤ 1.1', met: ratio <= 1.1 }] };
 *   },
 * };
 */
export interface BenchCase {
  /** How to select it: `npm run bench -- engine-v1`, or `engine` for every case named `engine-…`. */
  readonly name: string;
  /**
   * Measures; returns the raw result (written to the results file) and the rows of the table.
   * Throws when what it measures is wrong (a baseline that does not build the workflow's trace, a
   * run that does not complete): the run then exits non-zero, in a smoke pass too.
   */
  run(options: RunOptions): Promise<{ result: unknown; figures: Figure[] }>;
}
