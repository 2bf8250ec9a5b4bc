import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * DESIGN §1: `@mcpflow/core`'s root is importable in a project that has neither SDK line. The
 * packed package (npm test builds first) is unpacked into a fresh folder outside the repository,
 * next to its own dependencies and no `@modelcontextprotocol/*` at all, and loaded by a fresh
 * node, as CommonJS and as ESM.
 */
const REPO = path.resolve(__dirname, '../../..');
let project: string;

beforeAll(() => {
  project = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpflow-no-sdk-'));
  const tarball = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', project, '-w', '@mcpflow/core'], { cwd: REPO, encoding: 'utf8' }),
  )[0].filename as string;
  const core = path.join(project, 'node_modules', '@mcpflow', 'core');
  fs.mkdirSync(core, { recursive: true });
  execFileSync('tar', ['-xzf', path.join(project, tarball), '-C', core, '--strip-components=1']);
  for (const dependency of Object.keys(JSON.parse(fs.readFileSync(path.join(core, 'package.json'), 'utf8')).dependencies)) {
    fs.cpSync(path.join(REPO, 'node_modules', dependency), path.join(project, 'node_modules', dependency), { recursive: true });
  }
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'no-sdk-project', private: true }));
}, 120_000);

afterAll(() => fs.rmSync(project, { recursive: true, force: true }));

/** Runs `script` in a fresh node in the project folder and parses what it prints. */
function run(script: string, esm: boolean): unknown {
  const args = esm ? ['--input-type=module', '-e', script] : ['-e', script];
  return JSON.parse(execFileSync(process.execPath, args, { cwd: project, encoding: 'utf8' }));
}

const uses = `
  let sdk = 'resolvable';
  try { (await import('node:module')).createRequire(process.cwd() + '/').resolve('@modelcontextprotocol/sdk/server/mcp.js'); } catch { sdk = 'absent'; }
  try { (await import('node:module')).createRequire(process.cwd() + '/').resolve('@modelcontextprotocol/server'); sdk += ', 2.x resolvable'; } catch {}
  const error = new core.UnregisteredToolError('report', 'fetch', 'get_sales', ['get_costs']);
  console.log(JSON.stringify({
    sdk,
    code: core.ErrorCodes.UnregisteredTool,
    caught: error instanceof core.WorkflowDefinitionError && error.code,
    message: error.message,
    servers: ['WorkflowServer', 'serveStdio', 'serveHttp'].filter((name) => name in core),
  }));
`;

const expected = {
  sdk: 'absent',
  code: 91016,
  caught: 91016,
  message: expect.stringContaining("Workflow 'report', step 'fetch': calls tool 'get_sales'"),
  servers: [],
};

test('require("@mcpflow/core") works with neither SDK installed', () => {
  expect(run(`(async () => { const core = require('@mcpflow/core'); ${uses} })();`, false)).toEqual(expected);
});

test('import "@mcpflow/core" works with neither SDK installed', () => {
  expect(run(`import * as core from '@mcpflow/core'; ${uses}`, true)).toEqual(expected);
});
