/** The server process of the HTTP benchmark: the 4-step workflow and a static prompt on one server per session. */
import { serveHttp } from '../../examples/dist/serve';
import { z } from 'zod';
import type { AddressInfo } from 'node:net';
import { workflowServer } from './servers';

function create() {
  const server = workflowServer(4);
  const messages = [{ role: 'user' as const, content: { type: 'text' as const, text: 'A static prompt' } }];
  server.registerPrompt('static', { description: 'Fixed messages', argsSchema: { input: z.string() } }, () => ({ messages }));
  return server;
}

void serveHttp(create, 0).then((http) => process.send?.({ port: (http.address() as AddressInfo).port }));
