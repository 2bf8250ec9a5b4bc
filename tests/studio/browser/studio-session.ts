// What the studio's browser tests share: Debian's chromium (a missing browser fails the test, it
// never skips), `mcpflow dev` started as a user starts it (its first stdout line gives the page's
// address and token), and the fixture server over stdio or HTTP on either SDK line.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

const root = join(__dirname, '..', '..', '..');
const mcpflowBin = join(root, 'packages', 'transformer', 'bin', 'mcpflow.js');
export const fixtureServer = join(__dirname, 'studio-fixture-server.js');
const CHROMIUM = process.env.MCPFLOW_CHROMIUM ?? '/usr/bin/chromium';
const STARTUP_MS = 20_000;

/** Chromium, or an error that says how to install it (CI installs it in .ci/run). */
export async function launchChromium(args: string[] = []): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} is missing: the studio's browser tests drive Debian's chromium (apt-get install -y chromium, as .ci/run does)`,
    );
  }
  return chromium.launch({ executablePath: CHROMIUM, args });
}

/** Resolves with the first match of `pattern` in a stream's text; rejects when the process exits first. */
function waitForLine(child: ChildProcess, stream: 'stdout' | 'stderr', pattern: RegExp, what: string): Promise<RegExpMatchArray> {
  let seen = '';
  let other = '';
  const otherStream = stream === 'stdout' ? child.stderr! : child.stdout!;
  otherStream.on('data', (chunk: Buffer) => (other += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${what} printed no ${pattern} within ${STARTUP_MS} ms:\n${seen}\n${other}`)),
      STARTUP_MS,
    );
    child[stream]!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = seen.match(pattern);
      if (match) {
        clearTimeout(timer);
        resolve(match);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited (${code}) before printing ${pattern}:\n${seen}\n${other}`));
    });
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill();
  });
}

export interface Studio {
  /** The address `mcpflow dev` printed: `http://127.0.0.1:<port>/?token=<token>`. */
  readonly url: string;
  readonly origin: string;
  readonly port: number;
  readonly token: string;
  close(): Promise<void>;
}

/** `mcpflow dev --command <command>` or `--url <url>` (its default port: a free one), with more environment variables for it and its server, and more flags. */
export async function startDev(
  target: { command: string } | { url: string },
  env: NodeJS.ProcessEnv = {},
  more: string[] = [],
): Promise<Studio & { stderr(): string }> {
  const flags = ['command' in target ? ['--command', target.command] : ['--url', target.url], more].flat();
  // `env` is passed on explicitly: a test's process.env is jest's copy, which a child does not see.
  const child = spawn(process.execPath, [mcpflowBin, 'dev', ...flags], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [, origin, port, token] = await waitForLine(
    child,
    'stdout',
    /^mcpflow studio: (http:\/\/127\.0\.0\.1:(\d+))\/\?token=([\w-]+)\r?\n/,
    'mcpflow dev',
  );
  return {
    url: `${origin}/?token=${token}`,
    origin: origin!,
    port: Number(port),
    token: token!,
    close: () => stop(child),
    stderr: () => stderr,
  };
}

/** A server script over HTTP (`PORT=0`): the MCP URL it prints on stderr (`… on <url>`), and how to stop it. */
export async function startHttpServer(script: string, args: string[], port = 0): Promise<{ url: string; close(): Promise<void> }> {
  const child = spawn(process.execPath, [script, ...args], {
    cwd: root,
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const [, url] = await waitForLine(child, 'stderr', / on (http:\/\/\S+)/, script);
  return { url: url!, close: () => stop(child) };
}

/** The `--command` that runs a server script over stdio. */
export function nodeCommand(script: string, args: string[]): string {
  return [process.execPath, script, ...args].map((part) => JSON.stringify(part)).join(' ');
}

/** An example's built server (`npm run build` first). */
export const exampleServer = (name: string): string => join(root, 'examples', 'dist', name, 'server.js');

/** `mcpflow dev` on a server script over stdio or over HTTP; `close` stops both. */
export async function startStudioOn(transport: 'stdio' | 'http', script: string, args: string[], flags: string[] = []): Promise<Studio> {
  if (transport === 'stdio') return startDev({ command: nodeCommand(script, args) }, {}, flags);
  const server = await startHttpServer(script, args);
  const studio = await startDev({ url: server.url }, {}, flags).catch(async (error: unknown) => {
    await server.close();
    throw error;
  });
  return { ...studio, close: () => studio.close().then(() => server.close()) };
}
