import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { MCP_POST_HEADERS, rawRequest } from './raw-http';

/**
 * Issue 31.9: a request the SDK refuses (bad JSON, a wrong content type or Accept, a missing
 * envelope) is answered, and nothing is printed on stderr for it — no stack — on both lines alike.
 * Real processes on the built packages (tests/serving/quiet-server.js).
 */
const SCRIPT = path.join(__dirname, 'quiet-server.js');

const MODERN = { ...MCP_POST_HEADERS, 'mcp-protocol-version': '2026-07-28' };
const TOOLS_LIST = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });

const REFUSED: { what: string; headers: Record<string, string>; body: string }[] = [
  { what: 'bad JSON', headers: MCP_POST_HEADERS, body: '{"jsonrpc":' },
  { what: 'a wrong content type', headers: { ...MCP_POST_HEADERS, 'content-type': 'text/plain' }, body: '{}' },
  { what: 'bad JSON on 2026-07-28', headers: MODERN, body: '{"jsonrpc":"2.0","id":1' },
  { what: 'no envelope on 2026-07-28', headers: MODERN, body: TOOLS_LIST },
  { what: 'a wrong Accept on 2026-07-28', headers: { ...MODERN, accept: 'text/html' }, body: TOOLS_LIST },
];

describe.each(['1', '2'])('serveHttp on SDK %s.x', (line) => {
  let child: ChildProcess | undefined;
  afterEach(() => child?.kill());

  test('requests the SDK refuses are answered with an error, and stderr stays empty', async () => {
    child = spawn(process.execPath, [SCRIPT, line], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const url = await new Promise<URL>((resolve, reject) => {
      let stdout = '';
      child!.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        const found = /listening on (\S+)/.exec(stdout);
        if (found) resolve(new URL(found[1]));
      });
      child!.once('exit', (code) => reject(new Error(`the server exited (${code}): ${stderr}`)));
    });
    for (const { what, headers, body } of REFUSED) {
      const answer = await rawRequest(url, { headers, body });
      expect({ what, status: answer.status >= 400 }).toEqual({ what, status: true });
      expect(JSON.parse(answer.body)).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number) as unknown } });
    }
    // The server is still serving; what it printed is read after a request it has answered.
    expect((await rawRequest(url, { headers: MCP_POST_HEADERS, body: '{"jsonrpc":' })).status).toBe(400);
    expect(stderr).toBe('');
  });
});
