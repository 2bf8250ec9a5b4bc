/**
 * `serveHttp` on SDK 2.x in a project without `@modelcontextprotocol/node` (docs/serving.md): the
 * packed packages installed into a fresh project with `@modelcontextprotocol/server` alone, and the
 * same few lines run as an ES module and as CommonJS. Both reject with `MissingServingPackageError`
 * naming the install — never a raw `ERR_MODULE_NOT_FOUND` stack — and never listen.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { installProject, runIn } from './consumer-project';
import { packPackages } from './packed-packages';

jest.setTimeout(600_000);

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpflow-serving-'));
const dir = path.join(work, 'project');
const repoManifest = JSON.parse(fs.readFileSync(path.join(__dirname, '../../package.json'), 'utf8')) as {
  devDependencies: Record<string, string>;
};

/** A server with nothing on it, served over HTTP as docs/serving.md shows: serveHttp reports a failed start itself, the caller exits 1. */
const serve = (imports: string) => `${imports}

serveHttp(() => new WorkflowServer({ name: 'bare', version: '1.0.0' }), { port: 0 }).then(
  (serving) => console.log(\`listening on \${serving.url}\`),
  () => process.exit(1),
);
`;

beforeAll(() => {
  fs.mkdirSync(path.join(work, 'tarballs'));
  const versions = repoManifest.devDependencies;
  const installed = installProject(
    dir,
    {
      'package.json': JSON.stringify({
        name: 'no-node-transport',
        private: true,
        dependencies: { '@mcpflow/core': '*', '@modelcontextprotocol/server': versions['@modelcontextprotocol/server'], zod: '^4.2.0' },
      }),
      'serve.mjs': serve("import { WorkflowServer, serveHttp } from '@mcpflow/core/v2';"),
      'serve.cjs': serve("const { WorkflowServer, serveHttp } = require('@mcpflow/core/v2');"),
    },
    packPackages(path.join(work, 'tarballs')),
  );
  if (installed.status !== 0) throw new Error(`npm install failed:\n${installed.output}`);
});

afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

test('the project has SDK 2.x without the Node HTTP transport', () => {
  expect(fs.existsSync(path.join(dir, 'node_modules/@modelcontextprotocol/server'))).toBe(true);
  expect(fs.existsSync(path.join(dir, 'node_modules/@modelcontextprotocol/node'))).toBe(false);
});

test.each(['serve.mjs', 'serve.cjs'])('%s: serveHttp rejects with MissingServingPackageError naming the install', (file) => {
  const ran = runIn(dir, process.execPath, [file]);
  expect({ status: ran.status, output: ran.output }).toEqual({
    status: 1,
    output:
      'mcpflow: MissingServingPackageError: serveHttp on SDK 2.x needs @modelcontextprotocol/node, which is not installed. ' +
      'Fix: npm install @modelcontextprotocol/node\n',
  });
});
