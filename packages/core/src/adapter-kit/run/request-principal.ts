import { InvalidServerOptionError } from '../../engine';

/** What an authenticating transport says of a request (the SDK's `AuthInfo`, either line), as far as a principal needs it. */
export interface PrincipalAuthInfo {
  readonly token?: string;
  readonly clientId?: string;
  readonly scopes?: readonly string[];
  readonly extra?: Readonly<Record<string, unknown>>;
}

/**
 * Who made a request, as the server's `principal` option says, or from `authInfo`: the OAuth client
 * and the user it acts for (`extra.sub`, else `extra.subject`, else `extra.userId`, of any JSON
 * type: a numeric user id is a user, not "no user"). Never the token, which rotates.
 */
export interface RequestPrincipal {
  readonly clientId?: string;
  /** The user, as the token names it: a string, a number, or any JSON value. */
  readonly subject?: unknown;
}

/** The `principal` server option: who a request's `authInfo` is, as one string; `undefined` for nobody in particular. */
export type PrincipalOption = (authInfo: PrincipalAuthInfo) => string | undefined;

/**
 * The principal of a request with this `authInfo`: the server's `custom` option's answer when it
 * has one, else the client id with the first of `extra.sub`, `extra.subject`, `extra.userId` that
 * is there (whatever its JSON type); `undefined` without `authInfo`, or when neither names anyone.
 *
 * @example
 * ```ts
 * requestPrincipal({ clientId: 'app', extra: { userId: 7 } }); // { clientId: 'app', subject: 7 }
 * ```
 */
export function requestPrincipal(authInfo: PrincipalAuthInfo | undefined, custom?: PrincipalOption): RequestPrincipal | undefined {
  if (!authInfo) return undefined;
  if (custom) {
    const named = custom(authInfo);
    return named === undefined ? undefined : { subject: String(named) };
  }
  const extra = authInfo.extra;
  const subject = extra?.sub ?? extra?.subject ?? extra?.userId;
  if (authInfo.clientId === undefined && subject === undefined) return undefined;
  return { clientId: authInfo.clientId, subject };
}

/** The server's `principal` option, checked when the server is made: a function, or absent. */
export function principalOption(given: unknown): PrincipalOption | undefined {
  if (given === undefined || typeof given === 'function') return given as PrincipalOption | undefined;
  throw new InvalidServerOptionError(
    'principal',
    `must be a function of the request's authInfo that returns who it is (a string), not ${given === null ? 'null' : typeof given}.`,
  );
}
