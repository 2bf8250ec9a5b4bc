/**
 * The `_meta` key under which every tool a workflow run calls finds the run: `{ id }`, the same in
 * every round of the run and on every instance — an idempotency key for side effects that must
 * happen once per run, even when a client replays or retries.
 *
 * @example
 * ```ts
 * server.registerTool('charge', { inputSchema: { amount: z.number() } }, async ({ amount }, ctx) => {
 *   const run = ctx.mcpReq._meta?.[RUN_META_KEY] as RunMeta | undefined; // 1.x: extra._meta
 *   await payments.charge(amount, { idempotencyKey: run?.id });
 *   return { content: [{ type: 'text', text: 'charged' }] };
 * });
 * ```
 */
export const RUN_META_KEY = 'mcpflow/run';

/** What `_meta["mcpflow/run"]` holds in a tool's request context during a workflow run. */
export interface RunMeta {
  /** The run's id: random, made as the run starts, stable across its rounds. */
  readonly id: string;
}
