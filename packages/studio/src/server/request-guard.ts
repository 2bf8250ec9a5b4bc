import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** A fresh studio token: 32 random bytes, base64url (256 bits; the contract asks for at least 128). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Whether an address the page listens on is loopback (`--host` other than these needs `--allow-remote`). */
export function isLoopbackAddress(host: string): boolean {
  return LOOPBACK_HOSTS.has(host) || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** The host name of a `Host` header without its port (`[::1]:80` → `[::1]`). */
function hostName(header: string): string {
  const bracketed = /^(\[[^\]]*\])(:\d+)?$/.exec(header);
  if (bracketed) return bracketed[1].toLowerCase();
  return header.replace(/:\d+$/, '').toLowerCase();
}

/**
 * The name of the cookie that carries the token once the page loaded: one per port, since cookies
 * are not told apart by port and two studios may run side by side.
 */
function tokenCookieName(port: number): string {
  return `mcpflow-studio-${port}`;
}

/** The `Set-Cookie` value that binds the token to the page: `HttpOnly` (no script reads it), `SameSite=Strict` (no other site sends it). */
export function tokenCookie(port: number, token: string): string {
  return `${tokenCookieName(port)}=${token}; Path=/; HttpOnly; SameSite=Strict`;
}

/** How the guard checks a request. */
export interface GuardOptions {
  readonly token: string;
  readonly port: number;
  /** `--allow-remote`: any `Host` (the token still guards every request). */
  readonly anyHost?: boolean;
}

/**
 * Why a request is refused (403), or `undefined` when it may go on: its `Host` must be loopback
 * (a page of another site that a DNS rebinding points at 127.0.0.1 sends its own name) unless
 * `--allow-remote`; it must carry the token as `?token=`, the `x-mcpflow-token` header or the
 * page's cookie; and a POST must be `application/json` sent by the page itself (`Origin` is the
 * studio's own): a form or a `no-cors` fetch of another site is refused, token or not.
 */
export function refusal(request: IncomingMessage, url: URL, guard: GuardOptions): string | undefined {
  const host = request.headers.host;
  if (host === undefined || (!guard.anyHost && !LOOPBACK_HOSTS.has(hostName(host))))
    return `The studio answers only requests to a loopback host (127.0.0.1, localhost, [::1]), not ${JSON.stringify(host ?? '')}.`;
  if (request.method === 'POST') {
    const type = headerValue(request.headers['content-type']) ?? '';
    if (!/^application\/json\s*(;|$)/i.test(type))
      return `The studio's API takes POSTs only as application/json, not ${JSON.stringify(type)}.`;
    const origin = headerValue(request.headers.origin);
    if (origin !== `http://${host}`)
      return `The studio's API takes POSTs only from its own page (Origin http://${host}), not from ${JSON.stringify(origin ?? 'no Origin')}.`;
  }
  const given =
    url.searchParams.get('token') ?? headerValue(request.headers['x-mcpflow-token']) ?? cookieValue(request, tokenCookieName(guard.port));
  if (given === undefined) return 'The studio needs its token: open the URL mcpflow dev printed (it ends with ?token=…).';
  if (!sameToken(given, guard.token)) return 'Wrong studio token: open the URL the running mcpflow dev printed.';
  return undefined;
}

function cookieValue(request: IncomingMessage, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function sameToken(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}
