/** The address each HTTP request `serveHttp` handles came from, by the request object its handlers see. */
const addresses = new WeakMap<object, string>();

/**
 * Records the address a request came from (the socket's peer), for {@link remoteAddressOf}: the
 * SDK hands a handler the request (2.x `ctx.http.req`) but not its socket. Kept by the request
 * object, not in a header, so a client cannot name an address of its choosing.
 *
 * @example
 * ```ts
 * rememberRemoteAddress(request, nodeRequest.socket.remoteAddress);
 * ```
 */
export function rememberRemoteAddress(request: object, address: string | undefined): void {
  if (address) addresses.set(request, address);
}

/** The address `serveHttp` recorded for `request`, if it served it. */
export function remoteAddressOf(request: unknown): string | undefined {
  return typeof request === 'object' && request !== null ? addresses.get(request) : undefined;
}
