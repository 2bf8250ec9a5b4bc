/** One row of the table `npm run bench` prints: a figure beside its target. */
export interface Figure {
  benchmark: string;
  figure: string;
  target: string;
  met: boolean;
}

/**
 * A benchmark. To add one, write a file in `cases/` exporting a `BenchCase` and add it to the list
 * in `cases.ts`; `npm run bench -- <name>` then runs it alone.
 *
 * @example
 * export const echoCase: BenchCase = {
 *   name: 'echo',
 *   async run() {
 *     const { a, b } = await sideBySide({ a: runA, b: runB }, { warmup: 500, rounds: 20, batch: 200 });
 *     const ratio = a.median / b.median;
 *     return { result: { a, b, ratio }, figures: [{ benchmark: 'echo', figure: ratioFigure('a', a, 'b', b), target: 'ratio ≤ 1.1', met: ratio <= 1.1 }] };
 *   },
 * };
 */
export interface BenchCase {
  /** How to select it: `npm run bench -- engine-v1`, or `engine` for every case named `engine-…`. */
  readonly name: string;
  /** Measures; returns the raw result (written to bench/results.json) and the rows of the table. */
  run(): Promise<{ result: unknown; figures: Figure[] }>;
}
