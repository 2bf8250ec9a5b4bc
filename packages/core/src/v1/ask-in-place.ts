import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CreateMessageResultSchema, ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { type AskResponse, type InPlaceAskChannel } from '../engine';
import type { RequestExtra } from './request-extra';

/**
 * Asks the client in place, on SDK 1.x: each question is an `elicitation/create` or
 * `sampling/createMessage` request sent during the `prompts/get` (tied to it, so on Streamable
 * HTTP it travels on the request's own stream), and the run waits for the answer.
 *
 * @example
 * ```ts
 * const asking = askInPlace(server.server, extra, 60_000);
 * ```
 */
export function askInPlace(server: Server, extra: RequestExtra, timeoutMs: number): InPlaceAskChannel {
  return {
    mode: 'in-place',
    supports: (capability) => server.getClientCapabilities()?.[capability] !== undefined,
    send: (request, signal) => {
      const schema = request.method === 'elicitation/create' ? ElicitResultSchema : CreateMessageResultSchema;
      return extra.sendRequest(request as never, schema, { signal, timeout: timeoutMs }) as Promise<AskResponse>;
    },
  };
}
