/** Iterations of a `forEach` step that run at once when the step sets no `concurrency`. */
export const DEFAULT_FOR_EACH_CONCURRENCY = 1;

/** The most elements a `forEach` step accepts when it sets no `maxItems`: a longer array fails the step. */
export const DEFAULT_FOR_EACH_MAX_ITEMS = 100;
