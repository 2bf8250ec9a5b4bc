import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** A fresh studio token: 32 random bytes, base64url (256 bits; the contract asks for at least 128). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** The host name of a `Host` header without its port (`[::1]:80` → `[::1]`). */
function hostName(header: string): string {
  const bracketed = /^(\[[^\]]*\])(:\d+)?$/.exec(header);
  if (bracketed) return bracketed[1].toLowerCase();
  return header.replace(/:\d+$/, '').toLowerCase();
}

/**
 * Why a request is refused (403), or `undefined` when it may go on: its `Host` must be loopback
 * (a page of another site that a DNS rebinding points at 127.0.0.1 sends its own name), and it must
 * carry the token as `?token=` or the `x-mcpflow-token` header.
 */
export function refusal(request: IncomingMessage, url: URL, token: string): string | undefined {
  const host = request.headers.host;
  if (host === undefined || !LOOPBACK_HOSTS.has(hostName(host)))
    return `The studio answers only requests to a loopback host (127.0.0.1, localhost, [::1]), not ${JSON.stringify(host ?? '')}.`;
  const given = url.searchParams.get('token') ?? headerValue(request.headers['x-mcpflow-token']);
  if (given === undefined) return 'The studio needs its token: open the URL mcpflow dev printed (it ends with ?token=…).';
  if (!sameToken(given, token)) return 'Wrong studio token: open the URL the running mcpflow dev printed.';
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
