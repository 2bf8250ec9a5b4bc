import { request as httpRequest } from 'node:http';
import { startStudio, type Studio, type StudioOptions } from '@mcpflow/studio';

/** A studio under test and how a test talks to its API, as the page does (token header). */
export interface StudioUnderTest {
  readonly studio: Studio;
  api(path: string, init?: { method?: string; body?: unknown; token?: string | null }): Promise<{ status: number; json: any }>;
  /** Reads the run's event stream until `until` holds for an event; returns the events read. */
  events(runId: string, until: (event: { type: string; data: any }) => boolean): Promise<{ type: string; data: any }[]>;
  /** The run once it is no longer running. */
  finished(runId: string): Promise<any>;
  /** A GET with a Host header of the test's choosing (fetch sets its own). */
  withHost(path: string, host: string): Promise<number>;
}

export const STUDIO_SERVER = `${__dirname}/studio-server.js`;

export async function openStudio(options: StudioOptions): Promise<StudioUnderTest> {
  const studio = await startStudio(options);
  const base = `http://127.0.0.1:${studio.port}`;
  const api: StudioUnderTest['api'] = async (path, { method = 'GET', body, token = studio.token } = {}) => {
    // As the page sends it: a POST is JSON from the studio's own origin (else 403, see request-guard.ts).
    const headers: Record<string, string> = method === 'POST' ? { 'content-type': 'application/json', origin: base } : {};
    if (token !== null) headers['x-mcpflow-token'] = token;
    const response = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    return { status: response.status, json: text.startsWith('{') ? JSON.parse(text) : text };
  };
  const events: StudioUnderTest['events'] = async (runId, until) => {
    const response = await fetch(`${base}/api/runs/${runId}/events?token=${studio.token}`);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    const seen: { type: string; data: any }[] = [];
    let buffered = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return seen;
      buffered += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffered.indexOf('\n\n')) >= 0) {
        const block = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const type = /^event: (.*)$/m.exec(block)![1];
        const event = { type, data: JSON.parse(/^data: (.*)$/m.exec(block)![1]) };
        seen.push(event);
        if (until(event)) {
          await reader.cancel();
          return seen;
        }
      }
    }
  };
  return {
    studio,
    api,
    events,
    finished: async (runId) => (await events(runId, (event) => event.type === 'result')).at(-1)!.data,
    withHost: (path, host) =>
      new Promise((resolve, reject) => {
        const request = httpRequest(
          { host: '127.0.0.1', port: studio.port, path, headers: { host, 'x-mcpflow-token': studio.token } },
          (response) => {
            response.resume();
            resolve(response.statusCode!);
          },
        );
        request.on('error', reject);
        request.end();
      }),
  };
}
