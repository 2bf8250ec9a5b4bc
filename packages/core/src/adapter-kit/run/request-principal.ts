import type { RequestPrincipal } from '../tasks/tasks-support';

/** What an authenticated transport hands a request (`authInfo`, on both SDK lines), as far as who sent it goes. */
export interface AuthenticatedRequest {
  readonly clientId?: string;
  /** The token's other claims, as the transport's verifier put them. */
  readonly extra?: Readonly<Record<string, unknown>>;
}

/**
 * The principal a request authenticated as: its OAuth client id, and its subject from the token's
 * claims (`sub`, else `subject`, else `userId`); never the token itself. `undefined` when the
 * transport authenticated nothing (stdio, in memory, no auth).
 *
 * @example
 * ```ts
 * requestPrincipal({ clientId: 'app', extra: { sub: 'ada' } }); // { clientId: 'app', subject: 'ada' }
 * ```
 */
export function requestPrincipal(auth: AuthenticatedRequest | undefined): RequestPrincipal | undefined {
  if (!auth) return undefined;
  const subject = auth.extra?.sub ?? auth.extra?.subject ?? auth.extra?.userId;
  return { clientId: auth.clientId, subject: typeof subject === 'string' ? subject : undefined };
}
