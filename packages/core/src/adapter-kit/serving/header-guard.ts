/**
 * The outcome of checking a request header against the names a server accepts: a refusal is 400
 * for a header that is not well formed, 403 for one that names a host not served here.
 */
export type HeaderCheck = { ok: true } | { ok: false; status: 400 | 403; message: string };

/**
 * `Host` as RFC 9110 allows it: a host name, IPv4 address or bracketed IPv6 address, and an
 * optional port. Anything else (`evil.example@localhost`, a path) is refused before it reaches a URL
 * parser or an SDK, which would read it another way or throw.
 */
const HOST_AND_PORT = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~!$&'()*+,;=%-]+)(?::(\d{1,5}))?$/;

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
  if (!host) return { ok: false, status: 400, message: 'Missing Host header' };
  const port = HOST_AND_PORT.exec(host)?.[1];
  const hostname = port === undefined || Number(port) <= 65535 ? hostnameOf(`http://${host}`) : undefined;
  if (hostname === undefined || !HOST_AND_PORT.test(host))
    return { ok: false, status: 400, message: `Invalid Host header: ${host} is not a host name and port` };
  return allowed.includes(hostname) ? { ok: true } : { ok: false, status: 403, message: `Invalid Host: ${hostname} is not served here` };
}

/**
 * Checks a browser request's `Origin` header against `allowed`: an entry written as an origin
 * (`https://app.example:8443`) must match on scheme, host and port; one whose port is `*`
 * (`http://localhost:*`) on scheme and host, any port; an entry that is a host name alone matches
 * that host on any scheme and port. A request without `Origin` (what every non-browser MCP client
 * sends) passes; `Origin: null` (a sandboxed page, a file) matches no entry.
 *
 * @example
 * checkOriginHeader(undefined, ['localhost']);                  // { ok: true }
 * checkOriginHeader('https://evil.example', ['localhost']).ok;  // false
 * checkOriginHeader('http://app.example', ['https://app.example']).ok; // false: another scheme
 * checkOriginHeader('http://localhost:5173', ['http://localhost:*']).ok; // true: any port
 */
export function checkOriginHeader(origin: string | undefined, allowed: readonly string[]): HeaderCheck {
  if (origin === undefined) return { ok: true };
  const hostname = hostnameOf(origin);
  if (hostname === undefined) return { ok: false, status: 403, message: `Invalid Origin header: ${origin}` };
  const url = new URL(origin);
  return allowed.some((entry) => originMatches(entry, url))
    ? { ok: true }
    : { ok: false, status: 403, message: `Invalid Origin: ${origin} may not call this server` };
}

/** Whether an `allowedOrigins` entry admits the origin `url`: as an origin, an origin on any port (`:*`), or a host name. */
function originMatches(entry: string, url: URL): boolean {
  if (!entry.includes('://')) return entry === url.hostname;
  if (!entry.endsWith(':*')) return originOf(entry) === url.origin;
  const anyPort = originOf(entry.slice(0, -2));
  return anyPort !== undefined && anyPort === `${url.protocol}//${url.hostname}`;
}

/** An `allowedOrigins` entry written as an origin (`https://app.example:8443`), normalized as a browser sends it. */
function originOf(entry: string): string | undefined {
  try {
    return new URL(entry).origin;
  } catch {
    return undefined;
  }
}

/** The host name of a URL that is a scheme and a host only (no user, no path): an origin, or `http://` + a `Host`. */
function hostnameOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.username || parsed.password || parsed.pathname !== '/' || parsed.search || parsed.hash || url.includes('@'))
      return undefined;
    return parsed.hostname;
  } catch {
    return undefined;
  }
}
