import { errorTypeOf, type RunObserver } from '../../engine';

/**
 * The observer of one request's share of a run, as the kit holds it: what the engine reports
 * (`RunObserver`), and what only the kit sees — the request failing outside the run's own
 * outcomes (a `requestState` it will not resume from, an unexpected throw), maybe before the run
 * started.
 */
export interface RequestObserver extends RunObserver {
  threw(error: unknown): void;
}

/**
 * `error.type` for what a request threw: a protocol error's JSON-RPC code (`-32602`), as the MCP
 * conventions record one, else the error's class name — never its message.
 *
 * @example
 * ```ts
 * thrownType(new McpError(-32602, '…')); // '-32602'
 * ```
 */
export function thrownType(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' && Number.isInteger(code) ? String(code) : errorTypeOf(error);
}
