/**
 * How long a step may run when it sets no `timeoutMs`: 30 s, half the 60 s an SDK client waits by
 * default, so a hung tool ends its trace with a message before the client gives up on the request.
 */
export const DEFAULT_STEP_TIMEOUT_MS = 30_000;

/**
 * The largest `prompts/get` result a workflow returns, as UTF-8 bytes of its JSON: 8 MiB, below the
 * 10 MiB an SDK stdio transport buffers per message, with room for the JSON-RPC envelope.
 */
export const DEFAULT_MAX_TRACE_BYTES = 8 * 1024 * 1024;

/** The smallest `maxTraceBytes`: the trace's opening, its last message and `_meta` must fit. */
export const MIN_TRACE_BYTES = 4_096;

/** Server-wide limits of every run, set in the WorkflowServer's options. */
export interface ExecutionLimits {
  /**
   * The timeout of a step without `timeoutMs`, in ms (default `DEFAULT_STEP_TIMEOUT_MS`).
   * `false` disables it: a step without `timeoutMs` then waits as long as its tool does.
   */
  readonly defaultStepTimeoutMs?: number | false;
  /** The largest result, in bytes of JSON (default `DEFAULT_MAX_TRACE_BYTES`); larger messages are cut, and say so. */
  readonly maxTraceBytes?: number;
}

/** The limits a run applies, defaults filled in (applying them again changes nothing). */
export interface AppliedLimits {
  /** `false` when the default timeout is disabled. */
  readonly defaultStepTimeoutMs: number | false;
  readonly maxTraceBytes: number;
}

/** A WorkflowServer option out of range: thrown when the server is made. */
export class InvalidServerOptionError extends Error {
  constructor(
    /** The option's name: one of the limits, or another WorkflowServer option (`telemetry`, `askTimeoutMs`, `maxPendingAsks`, …). */
    readonly option: string,
    detail: string,
  ) {
    super(`WorkflowServer option ${option} ${detail}`);
    this.name = 'InvalidServerOptionError';
  }
}

/**
 * Checks the limits in a server's options and fills in the defaults; throws
 * `InvalidServerOptionError` for a value out of range.
 *
 * @example
 * ```ts
 * applyLimits({ defaultStepTimeoutMs: 5_000 }); // { defaultStepTimeoutMs: 5000, maxTraceBytes: 8388608 }
 * ```
 */
export function applyLimits(limits: ExecutionLimits = {}): AppliedLimits {
  const { defaultStepTimeoutMs = DEFAULT_STEP_TIMEOUT_MS, maxTraceBytes = DEFAULT_MAX_TRACE_BYTES } = limits;
  if (
    defaultStepTimeoutMs !== false &&
    !(typeof defaultStepTimeoutMs === 'number' && defaultStepTimeoutMs > 0 && defaultStepTimeoutMs <= 2_147_483_647)
  ) {
    throw new InvalidServerOptionError(
      'defaultStepTimeoutMs',
      `must be a positive number of milliseconds, or false to disable the default timeout (got ${String(defaultStepTimeoutMs)}).`,
    );
  }
  if (!(typeof maxTraceBytes === 'number' && maxTraceBytes >= MIN_TRACE_BYTES)) {
    throw new InvalidServerOptionError(
      'maxTraceBytes',
      `must be a positive number of bytes, at least ${MIN_TRACE_BYTES} (room for the trace's opening and closing messages), or Infinity for no bound (got ${String(maxTraceBytes)}).`,
    );
  }
  return { defaultStepTimeoutMs, maxTraceBytes };
}
