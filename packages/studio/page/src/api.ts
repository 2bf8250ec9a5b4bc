// The studio's JSON API (packages/studio/API.md): every request carries the page's token.
import type { WireEntry } from './raw-messages';
import type { InspectorListing, Run, RunList, RunLog, ServerState, TaskRow, WorkflowList } from './types';

/** The token the server wrote into the page, else the one in the address bar. */
function pageToken(): string {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="mcpflow-token"]')?.content ?? '';
  return meta && !meta.startsWith('__') ? meta : (new URLSearchParams(location.search).get('token') ?? '');
}

/** An API error: the server's message and, for a bad answer, the field it names. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly field?: string,
  ) {
    super(message);
  }
}

async function request<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    // A POST is always JSON: the server refuses any other type (a form or a no-cors fetch of another site).
    headers: { 'x-mcpflow-token': pageToken(), ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : {};
  } catch {
    json = { error: text || response.statusText };
  }
  if (!response.ok) throw new ApiError(json.error ?? `${response.status} ${response.statusText}`, response.status, json.field);
  return json as T;
}

export const api = {
  server: () => request<ServerState>('GET', '/api/server'),
  workflows: () => request<WorkflowList>('GET', '/api/workflows'),
  startRun: (workflow: string, face: string, args: Record<string, unknown>) =>
    request<{ runId: string }>('POST', '/api/runs', { workflow, face, arguments: args }),
  run: (runId: string) => request<Run>('GET', `/api/runs/${encodeURIComponent(runId)}`),
  runMessages: (runId: string) =>
    request<{ messages: WireEntry[]; dropped: number }>('GET', `/api/runs/${encodeURIComponent(runId)}/messages`),
  rerun: (runId: string, body: { fromStep?: string; arguments?: Record<string, string> }) =>
    request<{ runId: string }>('POST', `/api/runs/${encodeURIComponent(runId)}/rerun`, body),
  answer: (runId: string, body: { questionId: string; action: 'accept' | 'decline' | 'cancel'; content?: object }) =>
    request<{ ok: true }>('POST', `/api/runs/${encodeURIComponent(runId)}/answers`, body),
  tasks: () => request<{ tasks: TaskRow[] }>('GET', '/api/tasks'),
  inspector: () => request<InspectorListing>('GET', '/api/inspector'),
  callTool: (name: string, args: Record<string, unknown>) =>
    request<{ result: unknown }>('POST', '/api/inspector/tools/call', { name, arguments: args }),
  getPrompt: (name: string, args: Record<string, string>) =>
    request<{ result: unknown }>('POST', '/api/inspector/prompts/get', { name, arguments: args }),
  readResource: (uri: string) => request<{ result: unknown }>('POST', '/api/inspector/resources/read', { uri }),
  cancelTask: (taskId: string) => request<{ ok: true }>('POST', `/api/tasks/${encodeURIComponent(taskId)}/cancel`),
  runs: () => request<RunList>('GET', '/api/runs'),
  log: (runId: string) => request<RunLog>('GET', `/api/runs/${encodeURIComponent(runId)}/log`),
  cancelRun: (runId: string) => request<{ ok: true }>('POST', `/api/runs/${encodeURIComponent(runId)}/cancel`),
  reconnect: () => request<ServerState>('POST', '/api/server/reconnect'),
  /** The page's one event stream; SSE cannot send headers: the token goes in the query. */
  eventsUrl: () => `/api/events?token=${encodeURIComponent(pageToken())}`,
};
