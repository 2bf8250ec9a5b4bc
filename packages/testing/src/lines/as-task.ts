import {
  EXECUTION_META_KEY,
  readWorkflowModel,
  workflowFaces,
  type AskRequest,
  type ExecutionMeta,
  type PromptMessage,
} from '@mcpflow/core';
import type { AnswerBook } from '../answers/answer-book';
import { RunWorkflowOptionError } from '../errors/run-workflow-option-error';
import { workflowUses } from '../strict/workflow-uses';
import type { LineResult, LineRun } from './line-run';

const TASKS = 'io.modelcontextprotocol/tasks';
const ENDPOINT = 'http://mcpflow-testing.invalid/mcp';
/** More `tasks/get` calls than a run of stubs needs (each waits a millisecond). */
const MAX_POLLS = 100_000;
/** More MRTR rounds before a task than any workflow needs (each question is put at most its `attempts` times). */
const MAX_ROUNDS = 100;

type RpcAnswer = { result?: Record<string, any>; error?: { code: number; message: string } };

/** The SDK's stateless serving of the workflow's server (2.x `createMcpHandler`), which `sdk-2.ts` builds. */
export interface StatelessHandler {
  fetch(request: Request): Promise<Response>;
  close(): Promise<void>;
}

/**
 * Runs a workflow through its tool face as an MCP task (DESIGN §2.13; SDK 2.x, protocol
 * 2026-07-28, the SDK's stateless serving in memory): `tools/call` — retried with the answers and
 * the `requestState` while it answers an MRTR round (a first step that asks) — then `tasks/get`
 * until the task ends, each question it parks on answered from the book through `tasks/update`.
 * The client declares sampling only when the book has an entry for every question to the model: a
 * task's capabilities are those of its creating call, so a question to the model without an answer
 * hands off, as the tool face does for a client without a model. The 2.x `Client` takes no
 * `CreateTaskResult`, so the requests are JSON-RPC with the protocol's envelope. The run's
 * `messages` are the tool result's content blocks (the trace), each as a `user` message.
 */
export async function asTask(serve: () => StatelessHandler, run: LineRun): Promise<LineResult> {
  const model = readWorkflowModel(run.target);
  const tool = model && workflowFaces(model).tool;
  if (!tool?.task) {
    throw new RunWorkflowOptionError('task', `needs a workflow served as a task tool: expose: { tool: { task: 'optional' } } on the class`);
  }
  const modelQuestions = workflowUses(run.target)?.modelQuestions ?? new Set<string>();
  const sampling = [...modelQuestions].every((key) => run.answers.has(key));
  const handler = serve();
  const rpc = rpcOver(handler.fetch, sampling);
  try {
    const created = await createTask(rpc, tool.name, run);
    const taskId = created.taskId as string | undefined;
    if (!taskId) return toolResult(created);
    for (let poll = 0; poll < MAX_POLLS; poll += 1) {
      const task = await rpc('tasks/get', { taskId }, taskId);
      if (task.status === 'completed') return toolResult(task.result);
      if (task.status === 'failed' || task.status === 'cancelled')
        throw new Error(`runWorkflow: task of tool ${tool.name} ${task.status}${task.error ? `: ${task.error.message}` : ''}`);
      if (task.status === 'input_required') {
        const inputResponses = await answers(run.answers, task.inputRequests as Record<string, AskRequest>);
        await rpc('tasks/update', { taskId, inputResponses }, taskId);
      } else {
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    }
    throw new Error(`runWorkflow: the task of tool ${tool.name} did not end after ${MAX_POLLS} polls`);
  } finally {
    await handler.close();
  }
}

type Rpc = ReturnType<typeof rpcOver>;

/**
 * `tools/call` of the task tool, retried with the answers and the `requestState` of each MRTR round
 * it answers with (`resultType: "input_required"`: the first step asks before the task starts), until
 * it answers with the task — or with a result, when the run ended in the request.
 */
async function createTask(rpc: Rpc, tool: string, run: LineRun): Promise<Record<string, any>> {
  let retry: Record<string, unknown> = {};
  for (let round = 0; round <= MAX_ROUNDS; round += 1) {
    const created = await rpc('tools/call', { name: tool, arguments: { ...run.args }, ...retry }, tool);
    if (created.resultType !== 'input_required') return created;
    const inputResponses = await answers(run.answers, (created.inputRequests ?? {}) as Record<string, AskRequest>);
    retry = { inputResponses, requestState: created.requestState };
  }
  throw new Error(`runWorkflow: tool ${tool} was still asking before its task after ${MAX_ROUNDS} rounds`);
}

/** Posts JSON-RPC requests of protocol 2026-07-28, declaring elicitation, the tasks extension and (when `sampling`) sampling. */
function rpcOver(fetch: (request: Request) => Promise<Response>, sampling: boolean) {
  let id = 0;
  return async (method: string, params: Record<string, unknown>, name: string): Promise<Record<string, any>> => {
    const _meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'mcpflow-testing', version: '1.0.0' },
      'io.modelcontextprotocol/clientCapabilities': {
        elicitation: { form: {} },
        ...(sampling ? { sampling: {} } : {}),
        extensions: { [TASKS]: {} },
      },
    };
    const response = await fetch(
      new Request(ENDPOINT, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': method,
          'mcp-name': name,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params: { ...params, _meta } }),
      }),
    );
    const text = await response.text();
    const answer = JSON.parse(/^data: (.*)$/m.exec(text)?.[1] ?? text) as RpcAnswer;
    if (answer.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
    return answer.result!;
  };
}

/**
 * The answers to a round's questions, by key (a user's question without an answer is declined).
 * A question to the model is put only when the book has an entry for it; an entry that gives no
 * answer (a function returning `undefined`, `decline()`) cannot be sent in a task, which declared sampling.
 */
async function answers(book: AnswerBook, requests: Readonly<Record<string, AskRequest>>): Promise<Record<string, unknown>> {
  const responses: Record<string, unknown> = {};
  for (const [key, request] of Object.entries(requests)) {
    const response = await book.respond(key, request);
    if (response === undefined)
      throw new RunWorkflowOptionError(
        `answers['${key}']`,
        `gave no answer to a question to the model in a task, whose client declared sampling for it. Fix: answer it, or leave the key out (the run then hands off, as without a model).`,
      );
    responses[key] = response;
  }
  return responses;
}

function toolResult(result: Record<string, any>): LineResult {
  const content = (result.content ?? []) as PromptMessage['content'][];
  return {
    messages: content.map((block) => ({ role: 'user', content: block }) as PromptMessage),
    meta: result._meta?.[EXECUTION_META_KEY] as ExecutionMeta,
  };
}
