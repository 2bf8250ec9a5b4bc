/** The host names a client on this machine uses to reach a server bound to loopback. */
export const LOOPBACK_HOSTNAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/**
 * The origins a browser page on this machine has, served over plain HTTP on any port (a dev
 * server's `http://localhost:5173`): the default `allowedOrigins` of a loopback binding. Scheme and
 * host are compared exactly, so `https://localhost`, `http://localhost.evil.example` and `null` are not among them.
 */
export const LOOPBACK_ORIGINS: readonly string[] = LOOPBACK_HOSTNAMES.map((hostname) => `http://${hostname}:*`);

/**
 * Whether `host` (an interface to bind) is reachable only from this machine.
 *
 * @example
 * isLoopbackHost('127.0.0.1'); // true
 * isLoopbackHost('0.0.0.0');   // false: every interface
 */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}
