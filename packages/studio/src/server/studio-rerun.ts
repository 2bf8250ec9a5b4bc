import type { StandardSchemaV1 } from '@modelcontextprotocol/client';
import { ApiError } from './api-types';

/** The JSON-RPC method a server in dev mode answers to rerun a run it recorded (DESIGN §2.15). */
export const RERUN_METHOD = 'mcpflow/rerun';

/** What a dev server says of a run in its result's `_meta["mcpflow/run"]`: the id to rerun it by, and the run it reruns. */
export interface ServerRun {
  readonly id: string;
  readonly from?: string;
}

/** The longest run id the studio keeps from a server (mcpflow's are UUIDs). */
const MAX_ID_CHARS = 200;

/**
 * The server's record of a run, read from a result's `_meta` (capped before it is kept): absent when
 * the server did not record it — it is not in dev mode, or it is not an mcpflow server.
 */
export function serverRunOf(meta: Record<string, unknown> | undefined): ServerRun | undefined {
  const run = meta?.['mcpflow/run'] as { id?: unknown; from?: unknown } | undefined;
  const id = run?.id;
  if (typeof id !== 'string' || id.length === 0 || id.length > MAX_ID_CHARS) return undefined;
  const from = run?.from;
  return typeof from === 'string' && from.length <= MAX_ID_CHARS ? { id, from } : { id };
}

/** What the page asks a rerun to be: from the start with the same or edited arguments, or from a step. */
export interface RerunAsk {
  readonly fromStep?: string;
  readonly arguments?: Record<string, unknown>;
}

/** `POST /api/runs/:runId/rerun`'s body, checked: 400 naming the field that is wrong. */
export function rerunAsk(body: unknown): RerunAsk {
  const { fromStep, arguments: args } = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (fromStep !== undefined && typeof fromStep !== 'string')
    throw new ApiError(400, "fromStep must be the name of one of the run's steps, or left out to rerun from the start.", 'fromStep');
  if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args)))
    throw new ApiError(
      400,
      'arguments must be an object of argument values by name, or left out to rerun with the same ones.',
      'arguments',
    );
  if (fromStep !== undefined && args !== undefined)
    throw new ApiError(400, 'A rerun from a step keeps the run’s arguments: leave arguments out, or rerun from the start.', 'arguments');
  return { ...(fromStep !== undefined && { fromStep }), ...(args !== undefined && { arguments: args as Record<string, unknown> }) };
}

/** 409 for a run its server did not record: it cannot be rerun, and the message says why and what to do. */
export function notRerunnable(runId: string, why: string): ApiError {
  return new ApiError(409, `Run ${runId} cannot be rerun: ${why}`);
}

/** What the studio reads of `mcpflow/rerun`'s result: an object, as the face's own result is. */
export const RERUN_RESULT: StandardSchemaV1<unknown, Record<string, unknown>> = {
  '~standard': {
    version: 1,
    vendor: '@mcpflow/studio',
    validate: (value) =>
      typeof value === 'object' && value !== null && !Array.isArray(value)
        ? { value: value as Record<string, unknown> }
        : { issues: [{ message: 'the mcpflow/rerun result is not an object' }] },
  },
};
