import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

/**
 * The package's entry points as a user's node resolves them (through package.json `exports`, from
 * the built dist: `npm test` builds first), each in a fresh process so `require.cache` shows what
 * loading it loaded.
 */
const REPO = path.resolve(__dirname, '../../..');

function inFreshNode(script: string): unknown {
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: REPO, encoding: 'utf8' }));
}

const loadedSdks = `Object.keys(require.cache).map((file) => /node_modules[\\\\/]@modelcontextprotocol[\\\\/]([^\\\\/]+)/.exec(file)?.[1]).filter(Boolean).filter((name, index, all) => all.indexOf(name) === index).sort()`;

test('@mcpflow/core/v2 loads SDK 2.x and nothing of 1.x', () => {
  const loaded = inFreshNode(`
    const { WorkflowServer } = require('@mcpflow/core/v2');
    const { McpServer } = require('@modelcontextprotocol/server');
    const server = new WorkflowServer({ name: 'x', version: '1.0.0' });
    console.log(JSON.stringify({ isMcpServer: server instanceof McpServer, sdks: ${loadedSdks} }));
  `);
  expect(loaded).toEqual({ isMcpServer: true, sdks: ['core', 'server'] });
});

test('@mcpflow/core/v1 loads SDK 1.x and nothing of 2.x', () => {
  const loaded = inFreshNode(`
    const { WorkflowServer } = require('@mcpflow/core/v1');
    const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');
    const server = new WorkflowServer({ name: 'x', version: '1.0.0' });
    console.log(JSON.stringify({ isMcpServer: server instanceof McpServer, sdks: ${loadedSdks} }));
  `);
  expect(loaded).toEqual({ isMcpServer: true, sdks: ['sdk'] });
});

test('@mcpflow/core is SDK-neutral: it loads no SDK, and the servers come only from /v1 and /v2', () => {
  const loaded = inFreshNode(`
    const root = require('@mcpflow/core');
    console.log(JSON.stringify({
      servers: ['WorkflowServer', 'serveStdio', 'serveHttp'].filter((name) => name in root),
      unknownBinding: root.ErrorCodes.UnknownBinding,
      sdks: ${loadedSdks},
    }));
  `);
  expect(loaded).toEqual({ servers: [], unknownBinding: 91001, sdks: [] });
});
