import type { IncomingMessage } from 'node:http';

/** A POST's body as the serving helpers read it: JSON, or why it is not. */
export type RequestBody =
  { readonly kind: 'json'; readonly value: unknown } | { readonly kind: 'invalid' } | { readonly kind: 'too-large' };

/**
 * Parses a request body as JSON.
 *
 * @example
 * parseJsonBody('{"jsonrpc":"2.0"}'); // { kind: 'json', value: { jsonrpc: '2.0' } }
 * parseJsonBody('{"jsonrpc":');       // { kind: 'invalid' }
 */
export function parseJsonBody(text: string): RequestBody {
  try {
    return { kind: 'json', value: JSON.parse(text) as unknown };
  } catch {
    return { kind: 'invalid' };
  }
}

/**
 * Reads a Node request's whole body, at most `maxBytes` of it, and parses it as JSON. Stops reading
 * at the first byte over the bound; a client that goes away mid-body gives `invalid`. How long the
 * client may take is the HTTP server's bound (`requestTimeoutMs`), not this function's.
 *
 * @example
 * const body = await readJsonBody(request, 4 * 1024 * 1024);
 * if (body.kind === 'too-large') return writeJsonRpcError(response, 413, …);
 */
export function readJsonBody(request: IncomingMessage, maxBytes: number): Promise<RequestBody> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    const finish = (body: RequestBody) => {
      request.off('data', onData).off('end', onEnd).off('close', onClose);
      resolve(body);
    };
    const onData = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > maxBytes) {
        request.pause();
        finish({ kind: 'too-large' });
      } else chunks.push(chunk);
    };
    const onEnd = () => finish(parseJsonBody(Buffer.concat(chunks).toString('utf8')));
    const onClose = () => finish({ kind: 'invalid' });
    request.on('data', onData).once('end', onEnd).once('close', onClose);
  });
}
