import { MAX_MESSAGE_CHARACTERS, boundText } from '../text/bounded-text';
import type { ExecutionMeta, StepMeta } from './step-events';

/** The shortest a reason is cut to: the step and the kind of failure still show. */
const MIN_REASON_CHARACTERS = 60;

/** The end `boundText` gives a cut text: how long it was. */
const CUT_END = /… \([\d,]+ characters\)$/;

/**
 * `_meta["mcpflow/execution"]` held to about `maxBytes` of JSON, so that it cannot push a result
 * over `maxTraceBytes` (issue 31.8): its reasons — the run's, each step's, each failed iteration's,
 * already at most `MAX_MESSAGE_CHARACTERS` each — are cut shorter, halving until it fits or they
 * are `MIN_REASON_CHARACTERS` long. A reason cut before keeps the length it had when first cut
 * (`… (3,000 characters)`). Returns `meta` itself when it fits; applied after redaction, as every
 * bound.
 *
 * @example
 * ```ts
 * boundMeta({ status: 'failed', steps: [], reason: 'x'.repeat(2_000) }, 600).reason; // 'xxx…x… (2,000 characters)'
 * ```
 */
export function boundMeta(meta: ExecutionMeta, maxBytes: number): ExecutionMeta {
  let bounded = meta;
  for (let max = MAX_MESSAGE_CHARACTERS / 2; jsonBytes(bounded) > maxBytes && max >= MIN_REASON_CHARACTERS; max = Math.floor(max / 2)) {
    const cut = (reason: string) => cutReason(reason, max);
    bounded = {
      ...meta,
      ...(meta.reason === undefined ? {} : { reason: cut(meta.reason) }),
      steps: meta.steps.map((step) => cutStep(step, cut)),
    };
  }
  return bounded;
}

function cutStep(step: StepMeta, cut: (reason: string) => string): StepMeta {
  const { reason, iterations } = step;
  if (reason === undefined && !iterations?.failures.length) return step;
  return {
    ...step,
    ...(reason === undefined ? {} : { reason: cut(reason) }),
    ...(iterations
      ? { iterations: { ...iterations, failures: iterations.failures.map((failure) => ({ ...failure, reason: cut(failure.reason) })) } }
      : {}),
  };
}

/** The reason cut to about `max` characters; one cut before keeps its first note of how long it was. */
function cutReason(reason: string, max: number): string {
  const earlier = CUT_END.exec(reason);
  if (!earlier) return boundText(reason, max);
  const head = reason.slice(0, earlier.index);
  if (head.length <= max) return reason;
  return boundText(head, max).replace(CUT_END, earlier[0]);
}

function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value));
}
