/**
 * Serving on an interface other people can reach, without naming the host names clients may use.
 * On such a binding the `Host` check cannot be guessed, and without it any web page a browser
 * loads could drive the server through DNS rebinding.
 */
export class UnguardedBindingError extends Error {
  constructor(readonly host: string) {
    super(
      `Cannot serve MCP over HTTP on '${host}' without allowedHosts: a server reachable from other machines must ` +
        `name the host names its clients use, so that requests for any other Host are refused (DNS rebinding). ` +
        `Fix: pass allowedHosts (e.g. { host: '${host}', allowedHosts: ['mcp.example.com'] }), ` +
        `or bind to 127.0.0.1 for a local server.`,
    );
    this.name = 'UnguardedBindingError';
  }
}
