import type { RunSecrets } from '../../engine';
import { RUN_META_KEY, type RunMeta } from './run-meta';

/** Each run's `_meta["mcpflow/run"]` object, as its host made it, to the run's secrets: never on the wire, never readable by a tool. */
const secretsByRun = new WeakMap<RunMeta, RunSecrets>();

/**
 * The `_meta["mcpflow/run"]` a run's tools see, carrying the run's secrets to a workflow one of
 * them runs in turn (a sub-workflow, DESIGN §2.10): by the object's identity, in process — a
 * client cannot name or forge it.
 *
 * @example
 * ```ts
 * const context = line.request.withMeta(requestContext, { [RUN_META_KEY]: carrySecrets(runId, secrets) });
 * carriedSecrets(line.request.meta(context)); // secrets
 * ```
 */
export function carrySecrets(id: string, secrets: RunSecrets | undefined): RunMeta {
  const run: RunMeta = { id };
  if (secrets) secretsByRun.set(run, secrets);
  return run;
}

/** The secrets of the run whose tool this request context is (a workflow run as its step), if any. */
export function carriedSecrets(meta: Readonly<Record<string, unknown>> | undefined): RunSecrets | undefined {
  const run = meta && Object.hasOwn(meta, RUN_META_KEY) ? meta[RUN_META_KEY] : undefined;
  return typeof run === 'object' && run !== null ? secretsByRun.get(run as RunMeta) : undefined;
}
