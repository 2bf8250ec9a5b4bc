import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { EXECUTION_META_KEY, QUESTION_META_KEY, WorkflowServer } from '@mcpflow/core/v1';
import { answerInPlace } from '../answers/answer-in-place';
import { runInMemory } from './run-in-memory';
import type { LineResult, LineRun } from './line-run';
import { checkedServer } from './stubbed-server';

/**
 * Runs a workflow on SDK 1.x: its `WorkflowServer` and its `Client`, linked in memory, protocol
 * 2025-11-25; questions are answered in place, during the request.
 */
export async function runOnSdk1(run: LineRun): Promise<LineResult> {
  const server = checkedServer({ WorkflowServer, ResourceTemplate }, run);
  const client = new Client({ name: 'mcpflow-testing', version: '1.0.0' }, { capabilities: { elicitation: {}, sampling: {} } });
  client.setRequestHandler(ElicitRequestSchema, (request) => answerInPlace(run.answers, request, QUESTION_META_KEY) as never);
  client.setRequestHandler(CreateMessageRequestSchema, (request) => answerInPlace(run.answers, request, QUESTION_META_KEY) as never);
  return runInMemory(client, server, InMemoryTransport.createLinkedPair(), run, EXECUTION_META_KEY);
}
