/** A JSON-RPC request as it comes in a POST body: a method and an id. */
interface IncomingRequest {
  readonly method: string;
  readonly id: string | number;
}

function isRequest(message: unknown): message is IncomingRequest {
  if (typeof message !== 'object' || message === null) return false;
  const { method, id } = message as Record<string, unknown>;
  return typeof method === 'string' && (typeof id === 'string' || typeof id === 'number');
}

/**
 * Whether a POST body opens a 2025 session: one `initialize` request (alone, or alone in a batch).
 *
 * @example
 * isInitializeRequest({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }); // true
 * isInitializeRequest({ jsonrpc: '2.0', id: 1, method: 'prompts/list' });          // false
 */
export function isInitializeRequest(body: unknown): boolean {
  const message = Array.isArray(body) && body.length === 1 ? (body[0] as unknown) : body;
  return isRequest(message) && message.method === 'initialize';
}

/**
 * The ids of the requests in a POST body (one message or a batch): what the response to that POST
 * answers.
 *
 * @example
 * requestIds([{ jsonrpc: '2.0', id: 3, method: 'prompts/get' }, { jsonrpc: '2.0', method: 'notifications/initialized' }]); // [3]
 */
export function requestIds(body: unknown): (string | number)[] {
  return (Array.isArray(body) ? body : [body]).filter(isRequest).map((message) => message.id);
}
