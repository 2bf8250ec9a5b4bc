import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from './api-types';
import { callPlainTool, getPlainPrompt, inspectorListing, readResource } from './inspector';
import { isPageAsset, pageAsset } from './page-assets';
import { refusal, tokenCookie } from './request-guard';
import type { RunBook } from './run-book';
import type { RunHistory } from './run-history';
import type { ServerConnection } from './server-connection';
import type { WorkflowListing } from './workflow-list';

/** What the studio's HTTP handler serves from. */
export interface StudioParts {
  readonly token: string;
  /** `--allow-remote`: requests to any `Host` (the token still guards them). */
  readonly anyHost?: boolean;
  readonly pageDir: string;
  readonly connection: ServerConnection;
  readonly runs: RunBook;
  readonly history: RunHistory;
  readonly listing: () => Promise<WorkflowListing>;
  readonly cancelTask: (taskId: string) => Promise<void>;
}

const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Headers on every answer. The page loads only its own script (`script-src 'self'`, nothing
 * inline), images only from itself or `data:` (a label's `<img>` cannot fetch another origin), no
 * frame may hold it. `style-src` allows `'unsafe-inline'` because mermaid's SVG carries a `<style>`
 * element and `style` attributes of its own; styles run no code.
 */
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
} as const;

/**
 * The studio's HTTP handler (packages/studio/API.md): every request needs a loopback `Host` and the
 * token (else 403); then the page's assets and the JSON API. Errors are `{ error, field? }`.
 */
export function studioHandler(parts: StudioParts): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.setHeader(name, value);
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    // A browser asks for it on its own, without the token: nothing to show, nothing to refuse.
    if (request.method === 'GET' && url.pathname === '/favicon.ico') return void response.writeHead(204).end();
    const refused = refusal(request, url, { token: parts.token, port: request.socket.localPort ?? 0, anyHost: parts.anyHost });
    if (refused) return sendJson(response, 403, { error: refused });
    route(parts, request, response, url).catch((error: unknown) => {
      if (response.headersSent) return response.end();
      const status = error instanceof ApiError ? error.status : ((error as { status?: number }).status ?? 500);
      const field = error instanceof ApiError && error.field !== undefined ? { field: error.field } : {};
      sendJson(response, status, { error: error instanceof Error ? error.message : String(error), ...field });
    });
  };
}

async function route(parts: StudioParts, request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
  const method = request.method ?? 'GET';
  const path = url.pathname;
  const segments = path.split('/').filter(Boolean).map(decodedSegment);
  if (method === 'GET' && isPageAsset(path)) {
    const asset = await pageAsset(parts.pageDir, path, parts.token);
    // The page's cookie carries the token from now on: the page takes `?token=` out of the address bar.
    const cookie = url.searchParams.has('token') ? { 'set-cookie': tokenCookie(request.socket.localPort ?? 0, parts.token) } : {};
    response.writeHead(200, { 'content-type': asset.type, ...cookie });
    return void response.end(asset.body);
  }
  if (segments[0] !== 'api') throw new ApiError(404, `No such page: ${path}.`);
  const [, resource, id, action] = segments;
  if (method === 'GET' && resource === 'server' && id === undefined) return sendJson(response, 200, parts.connection.view());
  if (method === 'POST' && resource === 'server' && id === 'reconnect')
    return sendJson(response, 200, await parts.connection.reconnectNow());
  if (method === 'GET' && resource === 'events' && id === undefined)
    return streamChunks(request, response, (send) => parts.runs.watch(send));
  if (method === 'GET' && resource === 'workflows' && id === undefined) {
    parts.connection.connected();
    const { workflows, problems } = await parts.listing();
    return sendJson(response, 200, { workflows, problems });
  }
  if (resource === 'runs') {
    if (method === 'POST' && id === undefined) {
      parts.connection.connected();
      const run = await parts.runs.start(await readJson(request));
      return sendJson(response, 200, { runId: run.runId });
    }
    if (method === 'GET' && id === undefined) {
      const { history } = parts;
      const problem = history.problem === undefined ? {} : { historyProblem: history.problem };
      const kept = { runs: history.all().length, bytes: history.bytes(), maxRuns: history.maxRuns, maxBytes: history.maxBytes };
      return sendJson(response, 200, { runs: history.summaries(), kept, ...problem });
    }
    const run = parts.runs.get(id);
    if (method === 'GET' && action === undefined) return sendJson(response, 200, run.view);
    if (method === 'GET' && action === 'log') return sendJson(response, 200, { summary: run.summary(), events: run.log() });
    if (method === 'POST' && action === 'cancel') {
      parts.runs.cancel(run.runId);
      return sendJson(response, 200, { ok: true });
    }
    if (method === 'GET' && action === 'events')
      return streamChunks(request, response, (send) =>
        run.subscribe((event, _seq, json) => send(`event: ${event.type}\ndata: ${json}\n\n`)),
      );
    if (method === 'GET' && action === 'messages') return sendJson(response, 200, parts.runs.wire.of(run));
    if (method === 'POST' && action === 'rerun') {
      parts.connection.connected();
      const rerun = await parts.runs.rerun(run.runId, await readJson(request));
      return sendJson(response, 200, { runId: rerun.runId });
    }
    if (method === 'POST' && action === 'answers') {
      const body = (await readJson(request)) as Record<string, unknown>;
      run.answer(body.questionId, body.action, body.content);
      return sendJson(response, 200, { ok: true });
    }
  }
  if (resource === 'inspector') {
    const client = parts.connection.connected();
    if (method === 'GET' && id === undefined) return sendJson(response, 200, await inspectorListing(client));
    if (method === 'POST' && id === 'tools' && action === 'call')
      return sendJson(response, 200, { result: await callPlainTool(client, await readJson(request)) });
    if (method === 'POST' && id === 'prompts' && action === 'get')
      return sendJson(response, 200, { result: await getPlainPrompt(client, await readJson(request)) });
    if (method === 'POST' && id === 'resources' && action === 'read')
      return sendJson(response, 200, { result: await readResource(client, await readJson(request)) });
  }
  if (resource === 'tasks') {
    if (method === 'GET' && id === undefined) {
      const tasks = parts.runs
        .all()
        .filter((run) => run.taskId !== undefined)
        .map((run) => ({
          taskId: run.taskId,
          runId: run.runId,
          workflow: run.view.workflow,
          status: run.taskStatus,
          ...(run.statusMessage === undefined ? {} : { statusMessage: run.statusMessage }),
        }));
      return sendJson(response, 200, { tasks });
    }
    if (method === 'POST' && id !== undefined && action === 'cancel') {
      await parts.cancelTask(id);
      return sendJson(response, 200, { ok: true });
    }
  }
  throw new ApiError(404, `No such endpoint: ${method} ${path}.`);
}

function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new ApiError(400, `The path segment ${JSON.stringify(segment)} is not valid %-encoding.`);
  }
}

/** A `text/event-stream` of the chunks `subscribe` hears until the page goes. */
function streamChunks(request: IncomingMessage, response: ServerResponse, subscribe: (send: (chunk: string) => void) => () => void): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', connection: 'keep-alive' });
  // The headers now: the page's EventSource opens at once (it then reads GET /api/runs).
  response.flushHeaders();
  const unsubscribe = subscribe((chunk) => response.write(chunk));
  request.on('close', unsubscribe);
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new ApiError(413, `The request body is over ${MAX_BODY_BYTES} bytes.`);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return text === '' ? {} : (JSON.parse(text) as unknown);
  } catch {
    throw new ApiError(400, 'The request body is not JSON.');
  }
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(body));
}
