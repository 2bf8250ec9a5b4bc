import { requestPrincipal, type PrincipalAuthInfo } from './request-principal';

/**
 * Who sent a request, as far as the server can tell, for the quotas that keep one client from
 * using up what every client shares (the memory replay guard's rounds): the 2025 session the
 * request belongs to, else the principal it authenticated as (its subject of any JSON type, else
 * its OAuth client id: `requestPrincipal`), else the address it came from (`serveHttp` records it).
 * Each kind is prefixed, so a principal named like an address is not it.
 * `undefined` when none is known (stdio, in memory, a transport of the user's own).
 *
 * @example
 * ```ts
 * clientKey({ sessionId: undefined, authInfo: undefined, address: '192.0.2.7' }); // 'address:192.0.2.7'
 * ```
 */
export function clientKey(request: {
  readonly sessionId: string | undefined;
  readonly authInfo: PrincipalAuthInfo | undefined;
  readonly address: string | undefined;
}): string | undefined {
  const { sessionId } = request;
  if (sessionId) return `session:${sessionId}`;
  const principal = requestPrincipal(request.authInfo);
  if (principal?.subject !== undefined) return `subject:${JSON.stringify([principal.clientId ?? null, principal.subject])}`;
  if (principal?.clientId) return `client:${principal.clientId}`;
  if (request.address) return `address:${request.address}`;
  return undefined;
}
