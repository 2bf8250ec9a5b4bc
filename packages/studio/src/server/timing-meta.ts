/**
 * What every run request's `_meta` carries: `"mcpflow/timing": true` asks the server for each
 * step's duration in the result's `_meta["mcpflow/execution"]` (`durationMs`, and a `forEach`
 * step's `iterationDurationsMs`), so the timeline has exact times on every face, SDK line and
 * protocol, parallel steps and iterations included — progress notifications are not needed.
 */
export const TIMING_META = { 'mcpflow/timing': true } as const;
