import { spawn } from 'node:child_process';
import path from 'node:path';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpTransportV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioTransportV2 } from '@modelcontextprotocol/client/stdio';

/**
 * DESIGN §1 "Serving": serveStdio and serveHttp build one server and validate it before accepting
 * a connection. A broken workflow is printed on stderr with its code, workflow, step and fix; the
 * stdio process exits 1, serveHttp rejects. A factory that throws later is reported the same way.
 * Real processes, on both SDK lines (tests/serving/broken-server.js, on the built packages).
 */
const SCRIPT = path.join(__dirname, 'broken-server.js');

const BROKEN = [
  {
    breakage: 'unregistered',
    error: 'UnregisteredToolError',
    report:
      "mcpflow: UnregisteredToolError 91016: Workflow 'broken_report', step 'sales': calls tool 'get_sales', which this server has not registered.",
    fix: "Fix: register it with server.registerTool('get_sales', …) before connecting, or call a registered tool.",
  },
  {
    breakage: 'use',
    error: 'UnknownBindingError',
    report: "mcpflow: UnknownBindingError 91001: Workflow 'summary', step 'sales': reads binding 'regions', but no step binds it.",
    fix: "Fix: add @Bind('regions') to an earlier step, or read one of the available bindings.",
  },
  {
    breakage: 'option',
    error: 'InvalidServerOptionError',
    report: 'mcpflow: InvalidServerOptionError: WorkflowServer option maxTraceBytes must be a positive number of bytes, at least 4096',
    fix: '(got 10)',
  },
];

const LATER = "mcpflow: UnknownBindingError 91001: Workflow 'summary', step 'sales': reads binding 'regions', but no step binds it.";

interface Spawned {
  /** Everything the process wrote on stderr so far. */
  stderr(): string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  /** Resolves with the URL once the process prints `listening on <url>`. */
  listening: Promise<URL>;
  kill(): void;
}

/** Runs the broken server; its stdin stays open, as a client's pipe would, so it serves unless it exits. */
function spawnServer(...args: string[]): Spawned {
  const child = spawn(process.execPath, [SCRIPT, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const listening = new Promise<URL>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /listening on (\S+)/.exec(stderr);
      if (match) resolve(new URL(match[1]));
    });
    void exited.then((code) => reject(new Error(`exited with ${code}: ${stderr}`)));
  });
  listening.catch(() => undefined);
  return { stderr: () => stderr, exited, listening, kill: () => child.kill() };
}

/** Waits, at most `limitMs`, until `condition` holds; a functional wait, not a timing assertion. */
async function eventually(condition: () => boolean, limitMs = 10_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe.each(['1', '2'])('SDK %s.x', (line) => {
  test.each(BROKEN)('serveStdio with $breakage: the report on stderr, exit code 1', async ({ breakage, report, fix }) => {
    const server = spawnServer(line, 'stdio', breakage);
    expect(await server.exited).toBe(1);
    expect(server.stderr()).toContain(report);
    expect(server.stderr()).toContain(fix);
    expect(server.stderr()).not.toContain('serving on stdio');
  });

  test.each(BROKEN)(
    'serveHttp with $breakage: rejects with the error, reported on stderr, never listens',
    async ({ breakage, error, report, fix }) => {
      const server = spawnServer(line, 'http', breakage);
      expect(await server.exited).toBe(2);
      expect(server.stderr()).toContain(report);
      expect(server.stderr()).toContain(fix);
      expect(server.stderr()).toContain(`rejected with ${error}`);
      expect(server.stderr()).not.toContain('listening on');
    },
  );

  test('serveHttp: a factory that throws for a later session or request is reported with the same text, and serving goes on', async () => {
    const server = spawnServer(line, 'http', 'later');
    try {
      const url = await server.listening;
      for (let attempt = 0; attempt < 2; attempt += 1) {
        // 1.x: a 2025 session per client; 2.x: a 2026-07-28 client, a server per request.
        const client =
          line === '1'
            ? new ClientV1({ name: 'fail-fast', version: '1.0.0' })
            : new ClientV2({ name: 'fail-fast', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
        const transport = line === '1' ? new HttpTransportV1(url) : new HttpTransportV2(url);
        await expect(client.connect(transport as never).then(() => client.listPrompts())).rejects.toThrow();
        await client.close();
      }
      await eventually(() => server.stderr().split(LATER).length > 2);
      expect(server.stderr()).toContain("Fix: add @Bind('regions') to an earlier step");
    } finally {
      server.kill();
    }
  });
});

test('serveStdio on SDK 2.x: a factory that throws for the connection is reported with the same text', async () => {
  const transport = new StdioTransportV2({ command: process.execPath, args: [SCRIPT, '2', 'stdio', 'later'], stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new ClientV2({ name: 'fail-fast', version: '1.0.0' });
  try {
    await expect(client.connect(transport).then(() => client.listPrompts())).rejects.toThrow();
    await eventually(() => stderr.includes(LATER));
    expect(stderr).toContain("Fix: add @Bind('regions') to an earlier step");
  } finally {
    await client.close();
  }
});
