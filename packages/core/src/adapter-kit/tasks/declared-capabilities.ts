/** Client capabilities as a request or a session declares them; `extensions` is a map of its own. */
export interface DeclaredCapabilities {
  readonly extensions?: object;
}

/**
 * The capabilities that count for one request: what the request declares (in its `_meta`, on
 * 2026-07-28) over what its session declared (2025), each extension kept from either.
 *
 * @example
 * ```ts
 * declaredCapabilities({ extensions: { b: {} } }, { sampling: {}, extensions: { a: {} } }); // { sampling: {}, extensions: { a: {}, b: {} } }
 * ```
 */
export function declaredCapabilities<C extends DeclaredCapabilities>(
  fromRequest: C | undefined,
  fromSession: C | undefined,
): C | undefined {
  if (!fromRequest) return fromSession;
  if (!fromSession) return fromRequest;
  return { ...fromSession, ...fromRequest, extensions: { ...fromSession.extensions, ...fromRequest.extensions } };
}
