import 'reflect-metadata';
import { z } from 'zod';
import { Step, Workflow, promptArg } from '@mcpflow/decorators';
import type { ExecutionMeta } from '@mcpflow/core';
import { IN_MEMORY, MATRIX, SESSIONFUL, type Line } from '../helpers/lines';

@Workflow({ name: 'open_file', arguments: { path: z.string(), mode: z.string().optional() } })
class OpenFile {
  @Step({ tool: 'open', args: { path: promptArg('path') } })
  opened!: unknown;
}

function fileServer(line: Line) {
  return () => {
    const server = new line.WorkflowServer({ name: 'files', version: '1.0.0' });
    server.registerTool('open', { inputSchema: { path: z.string() } }, async ({ path }) => ({
      content: [{ type: 'text', text: `opened ${path}` }],
    }));
    return server.use(OpenFile);
  };
}

/** The message of the InvalidParams error the line's client rejects with. */
async function invalidParams(line: Line, promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(line.ProtocolError);
  expect((error as { code: number }).code).toBe(-32602);
  return (error as Error).message;
}

// 380,000 keys make a 4 MB request: in memory, where the transport adds nothing but time.
describe.each(IN_MEMORY)('a hostile argument map: $label', ({ line, transport }) => {
  test('380,000 unknown argument keys: a short error that names the first few and counts the rest', async () => {
    const client = await line.connect(fileServer(line), { transport });
    const args: Record<string, string> = { path: 'a.txt' };
    for (let index = 0; index < 380_000; index += 1) args[`k${index}`] = 'v';
    const message = await invalidParams(line, client.getPrompt({ name: 'open_file', arguments: args }));
    expect(message.length).toBeLessThan(1_000);
    expect(message).toContain(
      "Invalid arguments for prompt open_file: unknown arguments 'k0', 'k1', 'k2' and 379,997 more. Declared: path, mode",
    );
    // Still serving.
    const ok = await client.getPrompt({ name: 'open_file', arguments: { path: 'a.txt' } });
    expect((ok._meta?.['mcpflow/execution'] as ExecutionMeta).status).toBe('completed');
    await client.close();
  });
});

describe.each(MATRIX)('hostile argument names and values: $label', ({ line, transport }) => {
  test('a 1 MB argument name is shown cut, not echoed whole', async () => {
    const client = await line.connect(fileServer(line), { transport });
    const name = 'p'.repeat(1024 * 1024);
    const message = await invalidParams(line, client.getPrompt({ name: 'open_file', arguments: { path: 'a.txt', [name]: 'v' } }));
    expect(message.length).toBeLessThan(1_000);
    expect(message).toContain(`unknown argument '${'p'.repeat(40)}… (1,048,576 characters)'`);
    await client.close();
  });

  test('a hostile value that fails the schema is described, not echoed', async () => {
    const client = await line.connect(fileServer(line), { transport });
    const message = await invalidParams(
      line,
      client.getPrompt({ name: 'open_file', arguments: { path: ['x'.repeat(1024 * 1024)] as never } }),
    );
    expect(message.length).toBeLessThan(1_000);
    expect(message).toContain("argument 'path' is invalid");
    await client.close();
  });
});

// Over 2026-07-28 the prompt name also travels in an HTTP header, which the HTTP layer refuses first.
describe.each(SESSIONFUL)('a hostile prompt name: $label', ({ line, transport }) => {
  test('a prompt name of a megabyte gets a short not-found error', async () => {
    const client = await line.connect(fileServer(line), { transport });
    const message = await invalidParams(line, client.getPrompt({ name: 'q'.repeat(1024 * 1024), arguments: {} }));
    expect(message.length).toBeLessThan(1_000);
    await client.close();
  });
});

@Workflow({ name: 'open_file_tool', arguments: { path: z.string() }, expose: { tool: true } })
class OpenFileTool {
  @Step({ tool: 'open', args: { path: promptArg('path') } })
  opened!: unknown;
}

// JSON.parse keeps `__proto__` as an own key, as a client's request carries it.
describe.each(MATRIX)('an argument named __proto__: $label', ({ line, transport }) => {
  const withProto = () => JSON.parse('{"path":"a.txt","__proto__":{"polluted":true}}') as Record<string, unknown>;
  const server = () => fileServer(line)().use(OpenFileTool);

  test('prompts/get refuses it as an unknown argument, as it refuses constructor', async () => {
    const client = await line.connect(server, { transport });
    const message = await invalidParams(line, client.getPrompt({ name: 'open_file', arguments: withProto() as never }));
    expect(message).toContain("Invalid arguments for prompt open_file: unknown argument '__proto__'");
    const constructorMessage = await invalidParams(
      line,
      client.getPrompt({ name: 'open_file', arguments: { path: 'a.txt', constructor: 'x' } }),
    );
    expect(constructorMessage).toContain("unknown argument 'constructor'");
    await client.close();
  });

  test('tools/call of a workflow tool refuses it as an unknown argument', async () => {
    const client = await line.connect(server, { transport });
    const message = await invalidParams(line, client.callTool({ name: 'open_file_tool', arguments: withProto() }));
    expect(message).toContain("Invalid arguments for tool open_file_tool: unknown argument '__proto__'");
    await client.close();
  });
});

// A step's tool gets the request's `_meta` with the run added: a client's `__proto__` key stays a
// key there, as everywhere else, not the object's prototype. In memory: the request reaches the
// server as the client sent it (a session's HTTP body parser drops the key before the SDK sees it).
describe.each(IN_MEMORY)('a _meta key named __proto__: $label', ({ line, transport }) => {
  test("a step's tool sees it as an own key beside the client's others and mcpflow/run", async () => {
    const seen: Record<string, unknown>[] = [];
    const client = await line.connect(
      () => {
        const server = new line.WorkflowServer({ name: 'files', version: '1.0.0' });
        server.registerTool('open', { inputSchema: { path: z.string() } }, async ({ path }, context: unknown) => {
          seen.push(line.metaOf(context) ?? {});
          return { content: [{ type: 'text', text: `opened ${path}` }] };
        });
        return server.use(OpenFile);
      },
      { transport },
    );
    const _meta = JSON.parse('{"trace":"t1","__proto__":{"polluted":true}}') as Record<string, unknown>;
    await client.getPrompt({ name: 'open_file', arguments: { path: 'a.txt' }, _meta } as never);
    expect(seen).toHaveLength(1);
    const [meta] = seen;
    expect(Object.getPrototypeOf(meta)).toBe(Object.prototype);
    expect((meta as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.keys(meta)).toEqual(expect.arrayContaining(['trace', '__proto__', 'mcpflow/run']));
    expect(meta.trace).toBe('t1');
    expect(Object.getOwnPropertyDescriptor(meta, '__proto__')?.value).toEqual({ polluted: true });
    expect(meta['mcpflow/run']).toMatchObject({ step: 'opened' });
    await client.close();
  });
});
