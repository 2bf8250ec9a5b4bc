/**
 * An OTLP/HTTP trace receiver on 127.0.0.1, as a collector would be: it accepts what
 * `@opentelemetry/exporter-trace-otlp-http` posts (JSON, ids in hex) to `<base>/<anything>/v1/traces`
 * and keeps mcpflow's spans by that first path segment, so several processes can export to one
 * receiver and stay apart.
 *
 *   const receiver = await otlpReceiver();
 *   spawn(…, { env: { OTEL_EXPORTER_OTLP_ENDPOINT: `${receiver.base}/a` } });
 *   const spans = await receiver.runSpans('a', 3); // a run span among three
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A span as OTLP/JSON carries it. */
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** 1 internal, 2 server. */
  kind: number;
  attributes?: OtlpAttribute[];
  events?: { name: string; attributes?: OtlpAttribute[] }[];
  links?: { traceId: string; spanId: string }[];
  status?: { code?: number; message?: string };
}

interface OtlpAttribute {
  key: string;
  value: Record<string, unknown>;
}

interface OtlpRequest {
  resourceSpans: { scopeSpans: { scope?: { name?: string }; spans: OtlpSpan[] }[] }[];
}

export const SERVER_KIND = 2;

export interface OtlpReceiver {
  /** `http://127.0.0.1:<port>`: export to `${base}/<name>` (OTEL_EXPORTER_OTLP_ENDPOINT) or `${base}/<name>/v1/traces` (the exporter's `url`). */
  readonly base: string;
  /** mcpflow's spans received under `name` so far. */
  spans(name: string): OtlpSpan[];
  /**
   * Resolves with the spans received under `name` once a run span (kind SERVER) and `count` spans in
   * all have arrived (each span is its own request, in no set order); throws after 10 s.
   */
  runSpans(name: string, count: number): Promise<OtlpSpan[]>;
  close(): Promise<void>;
}

export async function otlpReceiver(): Promise<OtlpReceiver> {
  const received = new Map<string, OtlpSpan[]>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const name = /^\/([\w-]+)\/v1\/traces$/.exec(request.url ?? '')?.[1];
      if (request.method !== 'POST' || !name || request.headers['content-type'] !== 'application/json') {
        response.writeHead(404).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString()) as OtlpRequest;
      const spans = received.get(name) ?? [];
      for (const resource of body.resourceSpans)
        for (const scope of resource.scopeSpans) if (scope.scope?.name === '@mcpflow/core') spans.push(...scope.spans);
      received.set(name, spans);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const spans = (name: string) => received.get(name) ?? [];
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    async runSpans(name, count) {
      const deadline = Date.now() + 10_000;
      while (!(spans(name).some((span) => span.kind === SERVER_KIND) && spans(name).length >= count)) {
        if (Date.now() > deadline) throw new Error(`no run span arrived under ${name}; received: ${JSON.stringify([...received])}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return spans(name);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The value of a span's (or an event's) attribute, whatever its OTLP type. */
export function attributeOf(span: { attributes?: OtlpAttribute[] }, key: string): unknown {
  const value = span.attributes?.find((entry) => entry.key === key)?.value;
  return value && Object.values(value)[0];
}
