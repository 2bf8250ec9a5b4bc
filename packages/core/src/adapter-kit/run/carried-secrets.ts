import type { RunSecrets, ToolRun } from '../../engine';
import { issueRunMeta, RUN_META_KEY, type RunMeta } from './run-meta';
import { Stamped } from './stamped';

/**
 * A run's secrets, held in a private field of its `_meta["mcpflow/run"]` object, which stays a plain
 * `{ id, step }` (spread, JSON and a tool's reads see only `id` and `step`): never on the wire, never readable by a
 * tool. A private field rather than a `WeakMap` keyed by the object: a `WeakMap` entry per run cost
 * more than the rest of the run's setup (and its collection, more GC work).
 */
class CarriedSecrets extends Stamped {
  readonly #secrets: RunSecrets;

  constructor(run: RunMeta, secrets: RunSecrets) {
    super(run);
    this.#secrets = secrets;
  }

  /** The secrets stamped on an object by this class, if it was. */
  static of(run: object): RunSecrets | undefined {
    return #secrets in run ? (run as CarriedSecrets).#secrets : undefined;
  }
}

/**
 * The `_meta["mcpflow/run"]` a run's tools see, carrying the run's secrets to a workflow one of
 * them runs in turn (a sub-workflow, DESIGN §2.10): by the object's identity, in process — a
 * client cannot name or forge it, and a copy of it does not carry them.
 *
 * @example
 * ```ts
 * const context = line.request.forHandler(requestContext, { ...meta, [RUN_META_KEY]: carrySecrets({ id: runId, step: 'build' }, secrets) }, undefined);
 * carriedSecrets(line.request.meta(context)); // secrets
 * ```
 */
export function carrySecrets({ id, step }: ToolRun, secrets: RunSecrets | undefined): RunMeta {
  const run: RunMeta = issueRunMeta({ id, step });
  if (secrets) new CarriedSecrets(run, secrets);
  return run;
}

/** The secrets of the run whose tool this request context is (a workflow run as its step), if any. */
export function carriedSecrets(meta: Readonly<Record<string, unknown>> | undefined): RunSecrets | undefined {
  const run = meta && Object.hasOwn(meta, RUN_META_KEY) ? meta[RUN_META_KEY] : undefined;
  return typeof run === 'object' && run !== null ? CarriedSecrets.of(run) : undefined;
}
