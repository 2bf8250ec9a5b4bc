import { request } from 'node:http';

/** What a raw HTTP exchange answered. */
export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * Sends one HTTP request with exactly the headers given (`Host` and `Origin` included, which a
 * fetch client would not let a test forge), and reads the whole answer.
 */
export function rawRequest(
  url: URL,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method: options.method ?? 'POST', headers: options.headers }, (incoming) => {
      let body = '';
      incoming.setEncoding('utf8');
      incoming.on('data', (chunk: string) => (body += chunk));
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body }));
      incoming.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

/** The headers a Streamable HTTP client sends with a JSON-RPC POST. */
export const MCP_POST_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** A 2025-era `initialize` request, as a 1.x client opens a session with. */
export const INITIALIZE_2025 = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw-test', version: '1.0.0' } },
});

/** POSTs a 2025 `initialize` with extra headers (a forged `Host`, an `Origin`). */
export function initialize(url: URL, headers: Record<string, string> = {}): Promise<RawResponse> {
  return rawRequest(url, { headers: { ...MCP_POST_HEADERS, ...headers }, body: INITIALIZE_2025 });
}
