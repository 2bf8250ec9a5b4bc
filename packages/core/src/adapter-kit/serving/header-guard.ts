/** The outcome of checking a request header against the names a server accepts. */
export type HeaderCheck = { ok: true } | { ok: false; message: string };

/**
 * Checks a request's `Host` header: its host name (the port is ignored) must be one of `allowed`.
 * A missing or unparsable header is refused. This is the check that stops DNS rebinding, where
 * a web page's own domain is made to resolve to 127.0.0.1.
 *
 * @example
 * checkHostHeader('127.0.0.1:3000', ['localhost', '127.0.0.1', '[::1]']); // { ok: true }
 * checkHostHeader('evil.example:3000', ['localhost']).ok;                 // false
 */
export function checkHostHeader(host: string | undefined, allowed: readonly string[]): HeaderCheck {
  if (!host) return { ok: false, message: 'Missing Host header' };
  const hostname = hostnameOf(`http://${host}`);
  if (hostname === undefined) return { ok: false, message: `Invalid Host header: ${host}` };
  return allowed.includes(hostname) ? { ok: true } : { ok: false, message: `Invalid Host: ${hostname} is not served here` };
}

/**
 * Checks a browser request's `Origin` header: its host name must be one of `allowed`. A request
 * without `Origin` (what every non-browser MCP client sends) passes.
 *
 * @example
 * checkOriginHeader(undefined, ['localhost']);                  // { ok: true }
 * checkOriginHeader('https://evil.example', ['localhost']).ok;  // false
 */
export function checkOriginHeader(origin: string | undefined, allowed: readonly string[]): HeaderCheck {
  if (origin === undefined) return { ok: true };
  const hostname = hostnameOf(origin);
  if (hostname === undefined) return { ok: false, message: `Invalid Origin header: ${origin}` };
  return allowed.includes(hostname) ? { ok: true } : { ok: false, message: `Invalid Origin: ${origin} may not call this server` };
}

function hostnameOf(url: string): string | undefined {
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}
