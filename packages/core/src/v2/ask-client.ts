import { CLIENT_CAPABILITIES_META_KEY, type ClientCapabilities, type Server } from '@modelcontextprotocol/server';
import { DEFAULT_ASK_TIMEOUT_MS, type AskChannel, type AskResponse } from '../engine';
import type { RequestContext } from './request-context';

/** The first protocol revision with multi-round-trip requests (`input_required`). */
const ROUNDS_PROTOCOL = '2026-07-28';

/**
 * How a request on SDK 2.x asks its client. On protocol 2026-07-28 (stateless; the capabilities
 * come with each request) the run pauses and the answers come with the retry (`inputResponses`);
 * on a 2025 session the questions go out during the request, tied to it, and the run waits.
 *
 * @example
 * ```ts
 * const host = new V2Host(registry, ctx, askChannel(server.server, ctx));
 * ```
 */
export function askChannel(server: Server, ctx: RequestContext, timeoutMs = DEFAULT_ASK_TIMEOUT_MS): AskChannel {
  if (servesRounds(server)) {
    // The SDK types the envelope as {}; on 2026-07-28 each request declares the client capabilities there.
    const declared = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as
      ClientCapabilities | undefined;
    return {
      mode: 'rounds',
      supports: (capability) => declared?.[capability] !== undefined,
      responses: ctx.mcpReq.inputResponses as Readonly<Record<string, AskResponse>> | undefined,
    };
  }
  return {
    mode: 'in-place',
    supports: (capability) => server.getClientCapabilities()?.[capability] !== undefined,
    send: (request, signal) =>
      ctx.mcpReq.send({ method: request.method, params: request.params as never }, { signal, timeout: timeoutMs }) as Promise<AskResponse>,
  };
}

/** Whether this server instance serves protocol 2026-07-28 or later (the era is per instance). */
export function servesRounds(server: Server): boolean {
  const version = server.getNegotiatedProtocolVersion();
  return version !== undefined && version >= ROUNDS_PROTOCOL;
}
