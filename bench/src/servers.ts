import 'reflect-metadata';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { GetPromptResult, PromptMessage } from '@modelcontextprotocol/sdk/types.js';
import { Bind, Step, Workflow, field, promptArg } from '@mcpflow/decorators';
import { WorkflowServer } from '@mcpflow/core';

const inputSchema = { value: z.string() };
const schema = z.object(inputSchema);

/** A trivial tool: echoes its input as JSON, padded to `outputBytes`. */
function tool(index: number, outputBytes: number) {
  const pad = outputBytes > 0 ? 'x'.repeat(outputBytes) : '';
  return async ({ value }: { value: string }) => ({
    content: [{ type: 'text' as const, text: JSON.stringify({ value: `${value}>${index}`, pad }) }],
  });
}

function registerTools(server: McpServer, steps: number, outputBytes: number): void {
  for (let index = 0; index < steps; index += 1) {
    server.registerTool(`step_${index}`, { description: `Step ${index}`, inputSchema }, tool(index, outputBytes));
  }
}

/** A workflow of `steps` tool steps, each reading the previous step's `value` field. */
export function workflowServer(steps: number, outputBytes = 0): WorkflowServer {
  @Workflow({ name: 'chain', description: 'A chain of trivial steps', arguments: { input: z.string().describe('Input') } })
  class Chain {}
  for (let index = 0; index < steps; index += 1) {
    const property = `s${index}`;
    Bind(`out_${index}`)(Chain.prototype, property);
    Step({ tool: `step_${index}`, args: { value: index === 0 ? promptArg('input') : field(`out_${index - 1}`, 'value') } })(
      Chain.prototype,
      property,
    );
  }
  const server = new WorkflowServer({ name: 'bench', version: '1.0.0' });
  registerTools(server, steps, outputBytes);
  return server.use(Chain);
}

/**
 * The hand-written equivalent a user would otherwise write: a registerPrompt callback that makes
 * the same tool calls (each input validated by the tool's zod schema, as tools/call does) and
 * builds the same messages.
 */
export function baselineServer(steps: number, outputBytes = 0): McpServer {
  const server = new McpServer({ name: 'baseline', version: '1.0.0' });
  registerTools(server, steps, outputBytes);
  const handlers = Array.from({ length: steps }, (_, index) => tool(index, outputBytes));
  server.registerPrompt(
    'chain',
    { description: 'A chain of trivial steps', argsSchema: { input: z.string().describe('Input') } },
    async ({ input }) => {
      const text = (role: 'user' | 'assistant', value: string): PromptMessage => ({ role, content: { type: 'text', text: value } });
      let plan = 'Plan:';
      for (let index = 0; index < steps; index += 1) plan += `\n${index + 1}. s${index}: call tool step_${index} — Step ${index}`;
      const messages = [text('user', `A chain of trivial steps\nArguments:\n- input: ${input}`), text('assistant', plan)];
      let value = input;
      for (let index = 0; index < steps; index += 1) {
        const args = schema.parse({ value });
        messages.push(text('assistant', `Calling tool step_${index} with arguments: ${JSON.stringify({ value })}`));
        const result = await handlers[index](args);
        const output = result.content[0].text;
        messages.push(text('user', `Result of step_${index}:\n${output}`));
        value = (JSON.parse(output) as { value: string }).value;
      }
      const result: GetPromptResult = { description: 'A chain of trivial steps', messages };
      return result;
    },
  );
  return server;
}

/** A connected SDK client over InMemoryTransport. */
export async function inMemoryClient(server: McpServer): Promise<Client> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  return client;
}
