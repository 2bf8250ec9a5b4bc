/** How `npm run bench` runs its cases. */
export interface RunOptions {
  /**
   * `npm run bench -- --smoke`: every case with a few iterations, to prove in CI that each still
   * runs and that every baseline still builds its workflow's trace. Its figures mean nothing and
   * no target is judged.
   */
  readonly smoke: boolean;
}

/** The iterations of a smoke pass: enough to go through every code path once or twice. */
const SMOKE_SIZES = { warmup: 2, rounds: 2, batch: 2 } as const;

/**
 * The sizes a case measures with: `full` in a real run, a few iterations in a smoke pass
 * (`smoke`, when the case needs other than `SMOKE_SIZES`).
 *
 * @example
 * await sideBySide(contenders, sized(options, { warmup: 2000, rounds: 60, batch: 250 }));
 */
export function sized<T>(options: RunOptions, full: T, smoke?: T): T {
  if (!options.smoke) return full;
  return smoke ?? ({ ...full, ...SMOKE_SIZES } as T);
}
