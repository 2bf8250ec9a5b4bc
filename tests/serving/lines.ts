import 'reflect-metadata';
import { z } from 'zod';
import { Bind, Step, Workflow, promptArg } from '@mcpflow/decorators';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpTransportV2 } from '@modelcontextprotocol/client';
import * as v1 from '@mcpflow/core/v1';
import * as v2 from '@mcpflow/core/v2';
import { createCodeReviewServer } from '../../examples/code-review/server';

/** A connected client of either line, reduced to what the serving tests ask of it. */
export interface ServingClient {
  promptText(name: string, args: Record<string, string>): Promise<string>;
  close(): Promise<void>;
}

/** One SDK line as the serving tests see it: its helper, a server factory, and its 2025 client. */
export interface Line {
  name: string;
  serveHttp(options: v1.HttpServingOptions): Promise<v1.HttpServing>;
  connect2025(url: URL): Promise<ServingClient>;
  /** A prompt the served server has, its arguments, and text its answer contains. */
  prompt: { name: string; args: Record<string, string>; answer: string };
}

function firstText(result: { messages: { content: { type: string; text?: string } }[] }): string {
  return result.messages.map((message) => message.content.text ?? '').join('\n');
}

export const lineV1: Line = {
  name: 'SDK 1.x',
  serveHttp: (options) => v1.serveHttp(createCodeReviewServer, options),
  async connect2025(url) {
    const client = new ClientV1({ name: 'serving-test', version: '1.0.0' });
    await client.connect(new HttpTransportV1(url));
    return { promptText: async (name, args) => firstText(await client.getPrompt({ name, arguments: args })), close: () => client.close() };
  },
  prompt: { name: 'code_review', args: { code: 'a()' }, answer: 'Calling tool analyze_code with arguments: {"code":"a()"}' },
};

@Workflow({ name: 'greet', description: 'Greet someone', arguments: { name: z.string() } })
class Greet {
  @Step({ tool: 'make_greeting', args: { name: promptArg('name') } })
  @Bind('greeting')
  greeting!: string;
}

/** A 2.x WorkflowServer with one workflow, whose tool step the server runs itself. */
export function createGreeterV2(): v2.WorkflowServer {
  const server = new v2.WorkflowServer({ name: 'greeter', version: '1.0.0' });
  server.registerTool('make_greeting', { inputSchema: z.object({ name: z.string() }) }, async ({ name }) => ({
    content: [{ type: 'text', text: `Hello, ${name}` }],
  }));
  return server.use(Greet);
}

/** A 2.x client: 2025 sessions by default, or pinned to 2026-07-28 (stateless). */
export async function connectV2(url: URL, pin?: '2026-07-28'): Promise<ServingClient & { client: ClientV2 }> {
  const client = new ClientV2({ name: 'serving-test', version: '1.0.0' }, pin ? { versionNegotiation: { mode: { pin } } } : {});
  await client.connect(new HttpTransportV2(url));
  return {
    client,
    promptText: async (name, args) => firstText(await client.getPrompt({ name, arguments: args })),
    close: () => client.close(),
  };
}

export const lineV2: Line = {
  name: 'SDK 2.x',
  serveHttp: (options) => v2.serveHttp(createGreeterV2, options),
  connect2025: (url) => connectV2(url),
  prompt: { name: 'greet', args: { name: 'Ada' }, answer: 'Hello, Ada' },
};
