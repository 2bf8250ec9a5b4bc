import 'reflect-metadata';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Step, Workflow, askModel, askUser, promptArg } from '@mcpflow/decorators';
import type { ExecutionMeta } from '@mcpflow/core';
import { WorkflowServer } from '@mcpflow/core/v1';
import { findSecret } from '../helpers/secrets';

@Workflow({ name: 'guarded_deploy', arguments: { api_key: z.string(), target: z.string() }, sensitiveArguments: ['api_key'] })
class GuardedDeploy {
  @Step({
    tool: 'deploy',
    args: {
      key: promptArg('api_key'),
      risk: askModel('Rate the risk of deploying {target} with key {api_key}', { schema: z.enum(['low', 'high']) }),
      confirm: askUser('Deploy {target} with key {api_key}?', { schema: z.enum(['yes', 'no']) }),
    },
  })
  deployed!: unknown;
}

test('a question that quotes a sensitive argument goes to the client redacted (elicitation and sampling, in place on 1.x)', async () => {
  const secret = 'sk/live+Q9x="7"';
  const sent: unknown[] = [];
  const server = new WorkflowServer({ name: 'deploy', version: '1.0.0' });
  server.registerTool(
    'deploy',
    { inputSchema: { key: z.string(), risk: z.string(), confirm: z.string() } },
    async ({ key, risk, confirm }) => ({
      content: [{ type: 'text', text: `deployed with a key of ${key.length} chars, risk ${risk}, confirmed ${confirm}` }],
    }),
  );
  server.use(GuardedDeploy);
  const client = new Client({ name: 'asker', version: '1.0.0' }, { capabilities: { elicitation: {}, sampling: {} } });
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    sent.push(request.params);
    return { action: 'accept', content: { confirm: 'yes' } };
  });
  client.setRequestHandler(CreateMessageRequestSchema, (request) => {
    sent.push(request.params);
    return { role: 'assistant', model: 'test-model', content: { type: 'text', text: '"low"' } };
  });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  const result = await client.getPrompt({ name: 'guarded_deploy', arguments: { api_key: secret, target: 'prod' } });
  await client.close();
  expect((result._meta?.['mcpflow/execution'] as ExecutionMeta).status).toBe('completed');
  expect(sent).toHaveLength(2);
  expect(JSON.stringify(sent)).toContain('Deploy prod with key [redacted]?');
  expect(findSecret(sent, secret)).toBeUndefined();
  expect(findSecret(result, secret)).toBeUndefined();
});
