import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { serverPids } from './server-pids';
import { STUDIO_SERVER } from './studio-client';

/**
 * `mcpflow dev` (DESIGN §2.15): hands off to @mcpflow/studio; its first stdout line is the page's
 * URL with its token. Runs the built CLI (npm run build first).
 */

const CLI = path.join(__dirname, '..', '..', 'packages', 'transformer', 'bin', 'mcpflow.js');

/** Starts `mcpflow dev …`; resolves with its first stdout lines as they come. */
function dev(args: string[]): { child: ChildProcess; lines: AsyncIterator<string> } {
  const child = spawn(process.execPath, [CLI, 'dev', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  return { child, lines: createInterface({ input: child.stdout! })[Symbol.asyncIterator]() };
}

function stopped(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

describe('mcpflow dev', () => {
  test.each([
    ['stdio', 1],
    ['stdio', 2],
  ])('--command (%s, SDK %i.x): the first stdout line is the page URL with its token; the API answers with that token', async (_, sdk) => {
    const { child, lines } = dev(['--command', `"${process.execPath}" ${STUDIO_SERVER} --sdk ${sdk}`]);
    try {
      const first = (await lines.next()).value as string;
      const match = /^mcpflow studio: http:\/\/127\.0\.0\.1:(\d+)\/\?token=([A-Za-z0-9_-]{43})$/.exec(first);
      expect(match).not.toBeNull();
      expect((await lines.next()).value).toBe('mcpflow studio: server connected');
      const response = await fetch(`http://127.0.0.1:${match![1]}/api/workflows?token=${match![2]}`);
      expect(response.status).toBe(200);
      const { workflows } = (await response.json()) as { workflows: { name: string }[] };
      expect(workflows.map((workflow) => workflow.name)).toContain('book_table');
    } finally {
      if (child.exitCode === null && child.signalCode === null) await stopped(child);
    }
  });

  test('a server command that exits at once: the URL first, then a line that says it failed, with its stderr', async () => {
    const failing = spawn(process.execPath, [CLI, 'dev', '--command', `"${process.execPath}" ${STUDIO_SERVER}`], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, MCPFLOW_STUDIO_TEST_EXIT: '1' },
    });
    const failed = createInterface({ input: failing.stdout! })[Symbol.asyncIterator]();
    try {
      expect((await failed.next()).value).toMatch(/^mcpflow studio: http:\/\/127\.0\.0\.1:\d+\/\?token=/);
      const second = (await failed.next()).value as string;
      expect(second).toMatch(/^mcpflow studio: server failed: The server command `.*` did not start an MCP server on stdio/);
      expect(second).toContain('cannot open database.sqlite');
    } finally {
      await stopped(failing);
    }
  });

  test('without @mcpflow/studio installed: exit 1, naming the install', () => {
    // The CLI as a project without the studio has it: the transformer's build and its own dependencies only.
    const project = mkdtempSync(path.join(tmpdir(), 'no-studio-'));
    const modules = path.join(project, 'node_modules');
    const transformer = path.join(modules, '@mcpflow', 'transformer');
    mkdirSync(transformer, { recursive: true });
    const repo = path.join(__dirname, '..', '..');
    for (const entry of ['bin', 'dist', 'package.json'])
      cpSync(path.join(repo, 'packages', 'transformer', entry), path.join(transformer, entry), { recursive: true });
    symlinkSync(path.join(repo, 'node_modules', 'typescript'), path.join(modules, 'typescript'));
    symlinkSync(path.join(repo, 'packages', 'core'), path.join(modules, '@mcpflow', 'core'));
    const run = spawnSync(process.execPath, [path.join(transformer, 'bin', 'mcpflow.js'), 'dev', '--command', 'node server.js'], {
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      'mcpflow dev: the studio is a package of its own: install it with npm i -D @mcpflow/studio, then run mcpflow dev again.\n',
    );
  });

  test('bad usage: neither --command nor --url, or both, is exit 2 with the usage', () => {
    for (const args of [[], ['--command', 'x', '--url', 'http://127.0.0.1:1/mcp'], ['--port', 'many', '--command', 'x']]) {
      const run = spawnSync(process.execPath, [CLI, 'dev', ...args], { encoding: 'utf8' });
      expect(run.status).toBe(2);
      expect(run.stderr).toContain('Usage: mcpflow dev --command "<server command>" | --url <Streamable HTTP URL>');
    }
  });

  test('--help prints the help on stdout and exits 0; --header without --url is exit 2', () => {
    const help = spawnSync(process.execPath, [CLI, 'dev', '--help'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Usage: mcpflow dev --command');
    expect(help.stdout).toContain('--allow-remote');
    expect(help.stdout).toContain('--header');
    const header = spawnSync(process.execPath, [CLI, 'dev', '--command', 'x', '--header', 'A: b'], { encoding: 'utf8' });
    expect(header.status).toBe(2);
    expect(header.stderr).toContain('--header goes with --url');
  });

  test('--host 0.0.0.0 without --allow-remote: exit 1 naming the flag, nothing served', () => {
    const run = spawnSync(process.execPath, [CLI, 'dev', '--command', `"${process.execPath}" ${STUDIO_SERVER}`, '--host', '0.0.0.0'], {
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^mcpflow dev: The studio listens only on a loopback address .*Add --allow-remote/);
  });

  test('the server process does not outlive mcpflow dev: SIGHUP (a closed terminal) ends both', async () => {
    const pids = serverPids();
    // hostile-server.js stays up when its stdin ends: only the studio's own teardown ends it.
    const hostile = path.join(__dirname, 'hostile-server.js');
    const child = spawn(process.execPath, [CLI, 'dev', '--command', `"${process.execPath}" ${hostile}`], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, MCPFLOW_STUDIO_TEST_PIDS: pids.file },
    });
    try {
      const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
      await lines.next();
      expect((await lines.next()).value).toBe('mcpflow studio: server connected');
      // The SDK may start a short-lived probe first: wait for the server that stays.
      for (let tries = 0; tries < 100 && pids.alive().length === 0; tries += 1) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(pids.alive()).toHaveLength(1);
      await new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGHUP');
      });
      for (let tries = 0; tries < 100 && pids.alive().length > 0; tries += 1) await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      if (child.exitCode === null && child.signalCode === null) await stopped(child);
    }
    expect(pids.alive()).toEqual([]);
  });
});
