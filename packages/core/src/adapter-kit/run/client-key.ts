import type { RequestPrincipal } from '../tasks/tasks-support';

/**
 * Who sent a request, as far as the server can tell, for the quotas that keep one client from
 * using up what every client shares (the memory replay guard's rounds): the 2025 session the
 * request belongs to, else the principal it authenticated as (its subject, else its OAuth client
 * id), else the address it came from (`serveHttp` records it). Each kind is prefixed, so a principal named like an address is not it.
 * `undefined` when none is known (stdio, in memory, a transport of the user's own).
 *
 * @example
 * ```ts
 * clientKey({ sessionId: undefined, principal: undefined, address: '192.0.2.7' }); // 'address:192.0.2.7'
 * ```
 */
export function clientKey(request: {
  readonly sessionId: string | undefined;
  readonly principal: RequestPrincipal | undefined;
  readonly address: string | undefined;
}): string | undefined {
  const { sessionId, principal } = request;
  if (sessionId) return `session:${sessionId}`;
  if (principal?.subject) return `subject:${principal.subject}`;
  if (principal?.clientId) return `client:${principal.clientId}`;
  if (request.address) return `address:${request.address}`;
  return undefined;
}
