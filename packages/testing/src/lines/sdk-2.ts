import { Client, StreamableHTTPClientTransport, isInputRequiredResult, type ClientCapabilities } from '@modelcontextprotocol/client';
import { InMemoryTransport, ResourceTemplate, createMcpHandler } from '@modelcontextprotocol/server';
import type { AskRequest, AskResponse } from '@mcpflow/core';
import { EXECUTION_META_KEY, QUESTION_META_KEY, WorkflowServer } from '@mcpflow/core/v2';
import type { AnswerBook } from '../answers/answer-book';
import { answerInPlace } from '../answers/answer-in-place';
import { asTask } from './as-task';
import { faceResult, requestFace } from './face-request';
import { runInMemory } from './run-in-memory';
import type { LineResult, LineRun } from './line-run';
import { checkedServer, stubbedServer } from './stubbed-server';

const CLIENT = { name: 'mcpflow-testing', version: '1.0.0' };
/** Where the in-memory endpoint pretends to be: requests never leave the process. */
const ENDPOINT = new URL('http://mcpflow-testing.invalid/mcp');
/** More rounds than any workflow needs (each question is put at most its `attempts` times). */
const MAX_ROUNDS = 100;

/**
 * Runs a workflow on SDK 2.x, through its prompt or its tool: its `WorkflowServer` and its `Client`. On protocol 2026-07-28 the
 * client is pinned to it and served statelessly by the SDK's `createMcpHandler` (a server per
 * request, through its `fetch` handler in memory); a question pauses the run (`input_required`)
 * and the answers come with the retry. On 2025-11-25 the two are linked in memory and questions
 * are answered in place.
 */
export async function runOnSdk2(run: LineRun): Promise<LineResult> {
  const factory = () => stubbedServer({ WorkflowServer, ResourceTemplate }, run);
  const server = checkedServer({ WorkflowServer, ResourceTemplate }, run);
  if (run.task) return asTask((capabilities) => statelessClient(factory, capabilities), run);
  return run.protocol === '2025-11-25' ? inPlace(server, run) : byRounds(factory, run);
}

async function inPlace(server: WorkflowServer, run: LineRun): Promise<LineResult> {
  const client = new Client(CLIENT, { capabilities: { elicitation: { form: {} }, sampling: {} } });
  client.setRequestHandler('elicitation/create', (request) => answerInPlace(run.answers, request, QUESTION_META_KEY) as never);
  client.setRequestHandler('sampling/createMessage', (request) => answerInPlace(run.answers, request, QUESTION_META_KEY) as never);
  return runInMemory(client, server, InMemoryTransport.createLinkedPair(), run, EXECUTION_META_KEY);
}

async function byRounds(factory: () => WorkflowServer, run: LineRun): Promise<LineResult> {
  const opened: { close(): Promise<void> }[] = [];
  const connect = async (capabilities: ClientCapabilities): Promise<Client> => {
    const stateless = await statelessClient(factory, capabilities);
    opened.push(stateless);
    return stateless.client;
  };
  try {
    let client = await connect({ elicitation: { form: {} }, sampling: {} });
    let retry: Record<string, unknown> = {};
    for (let round = 0; round <= MAX_ROUNDS; round += 1) {
      const result = await requestFace(client, run, retry, { allowInputRequired: true });
      if (!isInputRequiredResult(result as never)) return faceResult(result, EXECUTION_META_KEY);
      const requests = ((result as { inputRequests?: unknown }).inputRequests ?? {}) as Record<string, AskRequest>;
      const { responses, unanswered } = await answerRound(run.answers, requests);
      // A question to the model without an answer: retry as a client without sampling, which the run hands off to.
      if (unanswered) client = await connect({ elicitation: { form: {} } });
      retry = { inputResponses: responses, requestState: (result as { requestState?: unknown }).requestState };
    }
    throw new Error(`runWorkflow: workflow '${run.name}' was still asking after ${MAX_ROUNDS} rounds`);
  } finally {
    await Promise.all(opened.map((each) => each.close()));
  }
}

/** A `Client` pinned to 2026-07-28 with `capabilities`, served statelessly by `createMcpHandler` in memory (a server per request). */
async function statelessClient(factory: () => WorkflowServer, capabilities: ClientCapabilities) {
  const handler = createMcpHandler(factory, { legacy: 'reject' });
  const client = new Client(CLIENT, { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities });
  await client.connect(new StreamableHTTPClientTransport(ENDPOINT, { fetch: (url, init) => handler.fetch(new Request(url, init)) }));
  return {
    client,
    async close() {
      await client.close();
      await handler.close();
    },
  };
}

/** The answers to one round's questions, by key; `unanswered` when a question to the model has none. */
async function answerRound(
  book: AnswerBook,
  requests: Readonly<Record<string, AskRequest>>,
): Promise<{ responses: Record<string, AskResponse>; unanswered: boolean }> {
  const responses: Record<string, AskResponse> = {};
  let unanswered = false;
  for (const [key, request] of Object.entries(requests)) {
    const response = await book.respond(key, request);
    if (response === undefined) unanswered = true;
    else responses[key] = response;
  }
  return { responses, unanswered };
}
