/**
 * A `forEach` step's iterations in `_meta`: how many elements, how each ended, and why each failed
 * one failed. A failure's `status` is spelled out (a step outcome's statuses but `completed`), so the
 * public type names no engine type.
 */
export interface IterationsMeta {
  count: number;
  completed: number;
  skipped: number;
  failed: number;
  cancelled: number;
  failures: { index: number; status: 'handoff' | 'failed' | 'cancelled'; reason: string }[];
}
