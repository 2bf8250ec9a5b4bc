import {
  CLIENT_CAPABILITIES_META_KEY,
  inputRequired,
  type ClientCapabilities,
  type McpServer,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { type AskRequest, type AskResponse, type InPlaceAskChannel } from '../engine';
import type { RoundsSupport } from '../adapter-kit';

/** The first protocol revision with multi-round-trip requests (`input_required`). */
const ROUNDS_PROTOCOL = '2026-07-28';

/**
 * Asks a 2025 session's client during the request, tied to it, and waits for the answer.
 *
 * @example
 * ```ts
 * const asking = askInPlace(server.server, ctx, 60_000);
 * ```
 */
export function askInPlace(server: McpServer['server'], ctx: ServerContext, timeoutMs: number): InPlaceAskChannel {
  return {
    mode: 'in-place',
    supports: (capability) => server.getClientCapabilities()?.[capability] !== undefined,
    send: (request, signal) =>
      ctx.mcpReq.send({ method: request.method, params: request.params as never }, { signal, timeout: timeoutMs }) as Promise<AskResponse>,
  };
}

/**
 * Pausing on protocol 2026-07-28 (stateless; the capabilities come with each request): the run's
 * questions go out as `input_required` with the sealed state, and the answers come with the retry
 * (`inputResponses`).
 */
export const rounds: RoundsSupport<McpServer, ServerContext> = {
  servesRounds(server) {
    const version = server.server.getNegotiatedProtocolVersion();
    return version !== undefined && version >= ROUNDS_PROTOCOL;
  },
  requestState: (ctx) => ctx.mcpReq.requestState() as string | undefined,
  channel(_server, ctx) {
    // The SDK types the envelope as {}; on 2026-07-28 each request declares the client capabilities there.
    const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
    const declared = envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
    return {
      mode: 'rounds',
      supports: (capability) => declared?.[capability] !== undefined,
      responses: ctx.mcpReq.inputResponses as Readonly<Record<string, AskResponse>> | undefined,
    };
  },
  inputRequired(requests, requestState) {
    const inputRequests = Object.fromEntries(Object.entries(requests).map(([key, request]) => [key, embedded(request)]));
    return inputRequired({ inputRequests, requestState });
  },
};

function embedded(request: AskRequest) {
  return request.method === 'elicitation/create'
    ? inputRequired.elicit(request.params as Parameters<typeof inputRequired.elicit>[0])
    : inputRequired.createMessage(request.params as Parameters<typeof inputRequired.createMessage>[0]);
}
