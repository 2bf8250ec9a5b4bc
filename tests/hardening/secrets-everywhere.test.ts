import 'reflect-metadata';
import fc from 'fast-check';
import { z } from 'zod';
import { Bind, Step, TemplateBinding, Workflow, askUser, field, promptArg, workflowTool } from '@mcpflow/decorators';
import type { RunEndEvent, StepEvent } from '@mcpflow/core';
import { MATRIX, type Line, type TestServer } from '../helpers/lines';
import { findSecret } from '../helpers/secrets';
import { exported, recordSpans } from '../helpers/tracing';

/**
 * Issue 31, "One set of secrets per run, everywhere it goes out", as a property: one random secret
 * through every face (prompt, tool) × every client (SDK 1.x and 2.x in place on 2025 sessions, 2.x
 * by rounds on 2026-07-28) × nesting depth 0–2 (the secret marked in the outer workflow, or only in
 * the innermost one) — with tools that echo their input, a resource whose URI it fills, and a
 * failing tool that quotes it — is found, in none of its encodings, in any channel of `CHANNELS`.
 * A failure names the channel. Add a channel by adding a row (SKILL.md, task records, …).
 */
const recorded = recordSpans();

/** Everything one run sent anywhere, by where it went. */
interface Observed {
  /** What the client got back: the prompt result, or the tool result. */
  readonly result: { messages?: unknown; content?: unknown; structuredContent?: unknown; _meta?: Record<string, unknown> };
  readonly spans: readonly unknown[];
  readonly stderr: readonly string[];
  readonly hooks: readonly unknown[];
  /** Every HTTP response body the client read (2026-07-28: the input_required round and its sealed `requestState`). */
  readonly wire: readonly string[];
}

/** A channel a secret could leave by: its name, and what it holds after a run. */
const CHANNELS: readonly { readonly name: string; readonly read: (observed: Observed) => unknown }[] = [
  { name: 'trace messages (prompt face)', read: ({ result }) => result.messages },
  { name: '_meta (mcpflow/execution)', read: ({ result }) => result._meta },
  { name: 'tool face content', read: ({ result }) => result.content },
  { name: 'tool face structuredContent', read: ({ result }) => result.structuredContent },
  { name: 'spans (names, attributes, events, status, links)', read: ({ spans }) => spans },
  { name: 'DEBUG=mcpflow lines on stderr', read: ({ stderr }) => stderr },
  { name: 'onStep / onRunEnd hooks', read: ({ hooks }) => hooks },
  { name: 'the wire, sealed state included', read: ({ wire }) => wire },
];

// The innermost workflows: echo what they are given through a tool, a resource URI and a failing tool's error.
@Workflow({ name: 'leaf', arguments: { code: z.string(), note: z.string() }, expose: { prompt: false, tool: { name: 'leaf' } } })
class Leaf {
  @Step({ tool: 'echo', args: { code: promptArg('code'), note: promptArg('note') } })
  @Bind('echoed')
  echoed!: unknown;

  @Step({ resource: 'vault://{code}' })
  @TemplateBinding('code', promptArg('code'))
  @Bind('page')
  page!: string;

  @Step({ tool: 'fail_echo', args: { code: promptArg('code') }, optional: true })
  failed!: unknown;
}

/** The same, keeping `code` secret itself. */
@Workflow({
  name: 'marked_leaf',
  arguments: { code: z.string(), note: z.string() },
  sensitiveArguments: ['code'],
  expose: { prompt: false, tool: { name: 'marked_leaf' } },
})
class MarkedLeaf {
  @Step({ tool: 'echo', args: { code: promptArg('code'), note: promptArg('note') } })
  @Bind('echoed')
  echoed!: unknown;

  @Step({ resource: 'vault://{code}' })
  @TemplateBinding('code', promptArg('code'))
  @Bind('page')
  page!: string;

  @Step({ tool: 'fail_echo', args: { code: promptArg('code') }, optional: true })
  failed!: unknown;
}

@Workflow({ name: 'mid', arguments: { code: z.string(), note: z.string() }, expose: { prompt: false, tool: { name: 'mid' } } })
class Mid {
  @Step({ tool: workflowTool(Leaf), args: { code: promptArg('code'), note: promptArg('note') } })
  @Bind('inner')
  inner!: unknown;
}

@Workflow({
  name: 'marked_mid',
  arguments: { code: z.string(), note: z.string() },
  expose: { prompt: false, tool: { name: 'marked_mid' } },
})
class MarkedMid {
  @Step({ tool: workflowTool(MarkedLeaf), args: { code: promptArg('code'), note: promptArg('note') } })
  @Bind('inner')
  inner!: unknown;
}

// The entries: depth 0 does the leaf's work itself; each asks a question first (a pause on 2026-07-28).
@Workflow({
  name: 'entry0',
  arguments: { code: z.string(), note: z.string() },
  sensitiveArguments: ['code'],
  expose: { tool: { name: 'entry0_tool' } },
})
class Entry0 {
  @Step({ tool: 'confirm', args: { confirmed: askUser('Go ahead with {note}?') } })
  confirmed!: unknown;

  @Step({ tool: 'echo', args: { code: promptArg('code'), note: promptArg('note') } })
  @Bind('echoed')
  echoed!: unknown;

  @Step({ resource: 'vault://{code}' })
  @TemplateBinding('code', promptArg('code'))
  @Bind('page')
  page!: string;

  @Step({ tool: 'fail_echo', args: { code: promptArg('code') }, optional: true })
  failed!: unknown;
}

@Workflow({
  name: 'entry1_outer',
  arguments: { code: z.string(), note: z.string() },
  sensitiveArguments: ['code'],
  expose: { tool: { name: 'entry1_outer_tool' } },
})
class Entry1Outer {
  @Step({ tool: 'confirm', args: { confirmed: askUser('Go ahead with {note}?') } })
  confirmed!: unknown;

  @Step({ tool: workflowTool(Leaf), args: { code: promptArg('code'), note: promptArg('note') } })
  @Bind('inner')
  inner!: unknown;
}

@Workflow({ name: 'entry1_inner', arguments: { code: z.string(), note: z.string() }, expose: { tool: { name: 'entry1_inner_tool' } } })
class Entry1Inner {
  @Step({ tool: 'confirm', args: { confirmed: askUser('Go ahead with {note}?') } })
  confirmed!: unknown;

  @Step({ tool: workflowTool(MarkedLeaf), args: { code: promptArg('code'), note: promptArg('note') } })
  @Bind('inner')
  inner!: unknown;
}

@Workflow({
  name: 'entry2_outer',
  arguments: { code: z.string(), note: z.string() },
  sensitiveArguments: ['code'],
  expose: { tool: { name: 'entry2_outer_tool' } },
})
class Entry2Outer {
  @Step({ tool: 'confirm', args: { confirmed: askUser('Go ahead with {note}?') } })
  confirmed!: unknown;

  @Step({ tool: workflowTool(Mid), args: { code: promptArg('code'), note: promptArg('note') } })
  @Bind('inner')
  inner!: unknown;
}

@Workflow({ name: 'entry2_inner', arguments: { code: z.string(), note: z.string() }, expose: { tool: { name: 'entry2_inner_tool' } } })
class Entry2Inner {
  @Step({ tool: 'confirm', args: { confirmed: askUser('Go ahead with {note}?') } })
  confirmed!: unknown;

  @Step({ tool: workflowTool(MarkedMid), args: { code: promptArg('code'), note: promptArg('note') } })
  @Bind('inner')
  inner!: unknown;
}

// The secret held by the server: a token a tool returns, passed on as a sensitive step argument.
@Workflow({ name: 'held0', arguments: { code: z.string(), note: z.string() }, expose: { tool: { name: 'held0_tool' } } })
class Held0 {
  @Step({ tool: 'login', args: { note: promptArg('note') } })
  @Bind('login')
  login!: { token: string };

  @Step({ tool: 'confirm', args: { confirmed: askUser('Go ahead with {note}?') } })
  confirmed!: unknown;

  @Step({ tool: 'echo', args: { code: field('login', 'token'), note: promptArg('note') }, sensitiveArgs: ['code'] })
  @Bind('echoed')
  echoed!: unknown;

  @Step({ resource: 'vault://{code}' })
  @TemplateBinding('code', field('login', 'token'))
  @Bind('page')
  page!: string;
}

@Workflow({ name: 'held1', arguments: { code: z.string(), note: z.string() }, expose: { tool: { name: 'held1_tool' } } })
class Held1 {
  @Step({ tool: 'login', args: { note: promptArg('note') } })
  @Bind('login')
  login!: { token: string };

  @Step({ tool: 'confirm', args: { confirmed: askUser('Go ahead with {note}?') } })
  confirmed!: unknown;

  @Step({ tool: workflowTool(Leaf), args: { code: field('login', 'token'), note: promptArg('note') }, sensitiveArgs: ['code'] })
  @Bind('inner')
  inner!: unknown;
}

@Workflow({ name: 'held2', arguments: { code: z.string(), note: z.string() }, expose: { tool: { name: 'held2_tool' } } })
class Held2 {
  @Step({ tool: 'login', args: { note: promptArg('note') } })
  @Bind('login')
  login!: { token: string };

  @Step({ tool: 'confirm', args: { confirmed: askUser('Go ahead with {note}?') } })
  confirmed!: unknown;

  @Step({ tool: workflowTool(Mid), args: { code: field('login', 'token'), note: promptArg('note') }, sensitiveArgs: ['code'] })
  @Bind('inner')
  inner!: unknown;
}

const CASES = [
  { label: 'depth 0', name: 'entry0', entry: Entry0 },
  { label: 'depth 1, marked outside', name: 'entry1_outer', entry: Entry1Outer },
  { label: 'depth 1, marked inside', name: 'entry1_inner', entry: Entry1Inner },
  { label: 'depth 2, marked outside', name: 'entry2_outer', entry: Entry2Outer },
  { label: 'depth 2, marked inside', name: 'entry2_inner', entry: Entry2Inner },
  { label: 'depth 0, held by the server', name: 'held0', entry: Held0 },
  { label: 'depth 1, held by the server', name: 'held1', entry: Held1 },
  { label: 'depth 2, held by the server', name: 'held2', entry: Held2 },
] as const;

/** The server of `target`; its `login` tool returns `secret` as the token. */
function server(line: Line, target: object, hooks: unknown[], secret: string) {
  return (): TestServer => {
    const built = new line.WorkflowServer(
      { name: 'secrets', version: '1.0.0' },
      { onStep: (event: StepEvent) => void hooks.push(event), onRunEnd: (event: RunEndEvent) => void hooks.push(event) },
    );
    const text = (value: unknown) => ({ content: [{ type: 'text' as const, text: JSON.stringify(value) }] });
    built.registerTool('echo', { inputSchema: { code: z.string(), note: z.string() } }, async (args: object) => text({ echoed: args }));
    built.registerTool('login', { inputSchema: { note: z.string() } }, async () => text({ token: secret }));
    built.registerTool('confirm', { inputSchema: { confirmed: z.string() } }, async (args: object) => text(args));
    built.registerTool('fail_echo', { inputSchema: { code: z.string() } }, async ({ code }: { code: string }) => {
      throw new Error(`rejected ${code} (${encodeURIComponent(code)})`);
    });
    built.registerResource('vault', new line.ResourceTemplate('vault://{code}', { list: undefined }), {}, async (uri: URL) => ({
      contents: [{ uri: uri.href, text: `page of ${uri.href}` }],
    }));
    return built.use(target as typeof Entry0);
  };
}

const CHARS = [...'abcXYZ019', '/', '+', '=', '%', '?', '#', '&', '"', '\\', ' ', '.', '-', '_', '~', "'", ':', '@', 'é', '漢', '🙂'];
const secretValue = fc
  .string({ unit: fc.constantFrom(...CHARS), minLength: 10, maxLength: 20 })
  .filter((text) => new Set(text).size >= 4 && !'[redacted]'.includes(text));

const CLIENTS = MATRIX.filter((entry) => entry.transport !== 'http');

/** Collects what the process writes to stderr and every HTTP response body the client reads, while `run` runs. */
async function capturing<T>(run: () => Promise<T>): Promise<{ value: T; stderr: string[]; wire: string[] }> {
  const stderr: string[] = [];
  const bodies: Promise<string>[] = [];
  const write = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr.push(String(chunk));
    return true;
  });
  const realFetch = globalThis.fetch;
  const fetchSpy = jest.spyOn(globalThis, 'fetch').mockImplementation(async (...args: Parameters<typeof fetch>) => {
    const response = await realFetch(...args);
    bodies.push(
      response
        .clone()
        .text()
        .catch(() => ''),
    );
    return response;
  });
  try {
    const value = await run();
    return { value, stderr, wire: await Promise.all(bodies) };
  } finally {
    write.mockRestore();
    fetchSpy.mockRestore();
  }
}

const previousDebug = process.env.DEBUG;
beforeAll(() => {
  process.env.DEBUG = 'mcpflow';
});
afterAll(() => {
  if (previousDebug === undefined) delete process.env.DEBUG;
  else process.env.DEBUG = previousDebug;
});

describe.each(CLIENTS)('$label', ({ line, transport }) => {
  describe.each(CASES)('$label', ({ name: workflow, entry: target }) => {
    test.each(['prompt', 'tool'] as const)('through the %s face: the secret is in no channel', async (face) => {
      await fc.assert(
        fc.asyncProperty(secretValue, async (secret) => {
          const hooks: unknown[] = [];
          const before = recorded.spans().length;
          const {
            value: result,
            stderr,
            wire,
          } = await capturing(async () => {
            const client = await line.connect(server(line, target, hooks, secret), {
              transport,
              elicit: () => ({ action: 'accept', content: { confirmed: 'yes' } }),
            });
            try {
              // A held secret is the login tool's: the client's own code is then a plain value.
              const args = { code: workflow.startsWith('held') ? 'plain-code' : secret, note: 'a plain note' };
              return face === 'prompt'
                ? await client.getPrompt({ name: workflow, arguments: args })
                : await client.callTool({ name: `${workflow}_tool`, arguments: args });
            } finally {
              await client.close();
            }
          });
          const observed: Observed = {
            result: result as Observed['result'],
            spans: recorded.spans().slice(before).map(exported),
            stderr,
            hooks,
            wire,
          };
          // The run did what the property is about: it completed, and the client saw the echoes (redacted).
          const meta = observed.result._meta?.['mcpflow/execution'] as { status: string } | undefined;
          expect(meta?.status).toBe('completed');
          expect(JSON.stringify(face === 'prompt' ? observed.result.messages : observed.result.content)).toContain('[redacted]');
          expect(stderr.some((text) => text.startsWith('mcpflow run'))).toBe(true);
          // On 2026-07-28 the question paused the run: its sealed state went over the wire, and came back.
          if (transport === 'stateless') expect(wire.join('\n')).toContain('"requestState"');
          for (const channel of CHANNELS) {
            const found = findSecret(channel.read(observed), secret);
            expect({ channel: channel.name, found }).toEqual({ channel: channel.name, found: undefined });
          }
        }),
        { numRuns: 4, seed: 31_2026 },
      );
    });
  });
});
