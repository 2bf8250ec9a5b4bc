import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Client, StreamableHTTPClientTransport, type ClientCapabilities } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const SERVER = path.join(__dirname, 'task-server.js');

export type TransportKind = 'stdio' | 'http';

/** task-server.js in its own process (over HTTP one for all clients; over stdio one per client), with its log. */
export interface ServedTaskServer {
  /**
   * A new SDK 2.x `Client` connected to it (protocol 2026-07-28 where the server speaks it, as
   * `'auto'` negotiates), declaring `capabilities` (an agent with a user to ask declares elicitation).
   */
  connect(capabilities?: ClientCapabilities): Promise<Client>;
  /** What the server's tools logged so far, one event a line. */
  events(): string[];
  close(): Promise<void>;
}

export async function serveTaskServer(kind: TransportKind, env: Record<string, string> = {}): Promise<ServedTaskServer> {
  const logFile = path.join(mkdtempSync(path.join(tmpdir(), 'mcpflow-client-')), 'events.log');
  const childEnv = { ...(process.env as Record<string, string>), MCPFLOW_TEST_LOG: logFile, ...env };
  const clients: Client[] = [];
  let child: ChildProcess | undefined;
  let url: URL | undefined;
  if (kind === 'http') {
    child = spawn(process.execPath, [SERVER], { env: { ...childEnv, MCPFLOW_TEST_HTTP: '1' }, stdio: ['ignore', 'pipe', 'inherit'] });
    url = new URL(
      await new Promise<string>((resolve, reject) => {
        child!.stdout!.once('data', (chunk: Buffer) => resolve((JSON.parse(chunk.toString()) as { url: string }).url));
        child!.once('exit', (code) => reject(new Error(`task-server.js exited with ${code}`)));
      }),
    );
  }
  return {
    async connect(capabilities = {}) {
      const client = new Client({ name: 'agent', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' }, capabilities });
      const transport = url
        ? new StreamableHTTPClientTransport(url)
        : new StdioClientTransport({ command: process.execPath, args: [SERVER], env: childEnv, stderr: 'inherit' });
      await client.connect(transport);
      clients.push(client);
      return client;
    },
    events() {
      try {
        return readFileSync(logFile, 'utf8').split('\n').filter(Boolean);
      } catch {
        return [];
      }
    },
    async close() {
      await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
      if (child && child.exitCode === null) {
        const exited = new Promise((resolve) => child!.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}

/** Resolves once `holds()` does, checking at each turn of a short timer (the server works in another process). */
export async function eventually(holds: () => boolean): Promise<void> {
  while (!holds()) await new Promise((resolve) => setTimeout(resolve, 10));
}
