import { callTool, TaskCancelledError, TaskFailedError, type InputRequests, type ToolResult } from '@mcpflow/client';
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

/** How often the task is polled: the server is in this process, so at once (each poll yields a millisecond). */
const POLL_MS = 1;

/** The SDK 2.x `Client` that `callTool` takes (named through it: only the line's module imports the SDK). */
export type TaskClient = Parameters<typeof callTool>[0];

/** A client of the workflow's server, connected with these capabilities, and how to close both; `sdk-2.ts` builds it. */
export type OpenClient = (capabilities: Record<string, unknown>) => Promise<{ readonly client: TaskClient; close(): Promise<void> }>;

/**
 * Runs a workflow through its tool face as an MCP task (DESIGN §2.13; SDK 2.x, protocol
 * 2026-07-28, the SDK's stateless serving in memory), with `@mcpflow/client`'s `callTool` over the
 * SDK's `Client`: each question — of an MRTR round before the task (a first step that asks) or of
 * the task — answered from the book. The client declares sampling only when the book has an entry
 * for every question to the model: a task's capabilities are those of its creating call, so a
 * question to the model without an answer hands off, as the tool face does for a client without a
 * model. The run's `messages` are the tool result's content blocks (the trace), each as a `user` message.
 */
export async function asTask(open: OpenClient, run: LineRun): Promise<LineResult> {
  const model = readWorkflowModel(run.target);
  const tool = model && workflowFaces(model).tool;
  if (!tool?.task) {
    throw new RunWorkflowOptionError('task', `needs a workflow served as a task tool: expose: { tool: { task: 'optional' } } on the class`);
  }
  const modelQuestions = workflowUses(run.target)?.modelQuestions ?? new Set<string>();
  const sampling = [...modelQuestions].every((key) => run.answers.has(key));
  const { client, close } = await open({ elicitation: { form: {} }, ...(sampling ? { sampling: {} } : {}) });
  try {
    const onInput = (requests: InputRequests) => answers(run.answers, requests as Readonly<Record<string, AskRequest>>);
    const result = await callTool(
      client,
      { name: tool.name, arguments: { ...run.args } },
      { task: 'always', onInput, pollIntervalMs: POLL_MS },
    );
    return toolResult(result);
  } catch (error) {
    if (error instanceof TaskFailedError || error instanceof TaskCancelledError) throw new Error(`runWorkflow: ${error.message}`);
    throw error;
  } finally {
    await close();
  }
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

function toolResult(result: ToolResult): LineResult {
  const content = (result.content ?? []) as PromptMessage['content'][];
  return {
    messages: content.map((block) => ({ role: 'user', content: block }) as PromptMessage),
    meta: result._meta?.[EXECUTION_META_KEY] as ExecutionMeta,
  };
}
