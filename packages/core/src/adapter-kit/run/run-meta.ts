import { RUN_META_KEY } from '../../engine';
import { Stamped } from './stamped';

/**
 * The `_meta` key under which every tool a workflow run calls finds the run: `{ id, step }`, the id
 * the same in every round of the run and on every instance, and the step that calls the tool — an
 * idempotency key for side effects that must happen once per run (and step), even when a client
 * replays or retries. (A workflow's result carries the version it ran on under the same key.)
 *
 * Read it with {@link runOf}.
 */
export { RUN_META_KEY };

/** What `_meta["mcpflow/run"]` holds in a tool's request context during a workflow run. */
export interface RunMeta {
  /** The run's id: random, made as the run starts, stable across its rounds. */
  readonly id: string;
  /** The name of the step that calls the tool (the items of a `forEach` step share it). */
  readonly step: string;
}

/**
 * The run objects this process's runs put into their tools' contexts. `runOf` believes only these:
 * a client calling a tool directly can put anything under `_meta["mcpflow/run"]`, but not one of
 * these objects, so it cannot make a tool believe it runs in (and so share an idempotency key with)
 * somebody's run. A private brand on the object rather than a `WeakSet`: a run makes one per step,
 * and a `WeakSet` entry each cost more than the rest of the step's context (and more GC work).
 */
class IssuedRun extends Stamped {
  readonly #issued = true;

  /** Whether this class stamped the object. */
  static has(run: object): boolean {
    return #issued in run;
  }
}

/** Marks `run` as made by a run of this process: the only kind of `_meta["mcpflow/run"]` {@link runOf} reads. */
export function issueRunMeta<T extends RunMeta>(run: T): T {
  new IssuedRun(run);
  return run;
}

/**
 * The workflow run a tool's handler works for, read from its context — the 2.x `ctx`
 * (`ctx.mcpReq._meta`), the 1.x `extra` (`extra._meta`), or a `defineTool` handler's context on
 * either line — or `undefined` when the tool was not called by a run: a client called it directly,
 * whatever it sent under `_meta["mcpflow/run"]` (only a run of this process can set it).
 * Its `id` is the same in every round of the run, on every instance, and when a step in flight at
 * a crash runs again; its `step` names the step that called the tool. Together they are the
 * idempotency key for a side effect that must happen once per step of a run.
 *
 * @example
 * ```ts
 * const charge = defineTool('charge', { inputSchema: { amount: z.number() } }, async ({ amount }, ctx) => {
 *   const run = runOf(ctx);
 *   await payments.charge(amount, { idempotencyKey: run && `${run.id}/${run.step}` });
 *   return { content: [{ type: 'text', text: 'charged' }] };
 * });
 * ```
 */
export function runOf(context: unknown): RunMeta | undefined {
  const holder = context as { mcpReq?: { _meta?: unknown }; _meta?: unknown } | null | undefined;
  const meta = (holder?.mcpReq?._meta ?? holder?._meta) as Readonly<Record<string, unknown>> | undefined;
  const run = meta && typeof meta === 'object' && Object.hasOwn(meta, RUN_META_KEY) ? meta[RUN_META_KEY] : undefined;
  if (typeof run !== 'object' || run === null || !IssuedRun.has(run)) return undefined;
  const { id, step } = (run ?? {}) as { id?: unknown; step?: unknown };
  return typeof id === 'string' && typeof step === 'string' ? { id, step } : undefined;
}
