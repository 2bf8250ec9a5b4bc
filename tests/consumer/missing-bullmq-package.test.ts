/**
 * `bullmqTasks` in a project with `bullmq` but without `ioredis` (BullMQ 6 lists ioredis as an
 * optional peer, so `npm install bullmq` alone does not install it): the packed packages installed
 * into a fresh project, the same few lines run as an ES module and as CommonJS. Both fail at start
 * with mcpflow's error naming the install (`npm install bullmq ioredis`), not a raw ERR_MODULE_NOT_FOUND.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { installProject, runIn } from './consumer-project';
import { packPackages } from './packed-packages';

jest.setTimeout(600_000);

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpflow-bullmq-'));
const dir = path.join(work, 'project');
const repoManifest = JSON.parse(fs.readFileSync(path.join(__dirname, '../../package.json'), 'utf8')) as {
  devDependencies: Record<string, string>;
};

/** A server whose tasks live in BullMQ, served over HTTP: the store starts with the server; a failure is printed and exits 1. */
const serve = (imports: string) => `${imports}

process.on('unhandledRejection', (error) => {
  console.error(\`unhandled: \${error.message}\`);
  process.exit(2);
});
const slow = defineTool('slow', { description: 'Works slowly', inputSchema: {}, task: 'optional' }, async () => ({ content: [] }));
const tasks = bullmqTasks({ connection: { host: '127.0.0.1', port: 1 } });
const pause = { keys: ['${'k'.repeat(64)}'] };
serveHttp(() => new WorkflowServer({ name: 'queued', version: '1.0.0' }, { tasks, pause }).registerDefinitions(slow), { port: 0 }).then(
  (serving) => console.log(\`listening on \${serving.url}\`),
  (error) => {
    console.error(\`serveHttp rejected: \${error.message}\`);
    process.exit(1);
  },
);
`;

beforeAll(() => {
  fs.mkdirSync(path.join(work, 'tarballs'));
  const versions = repoManifest.devDependencies;
  const installed = installProject(
    dir,
    {
      'package.json': JSON.stringify({
        name: 'no-ioredis',
        private: true,
        dependencies: {
          '@mcpflow/core': '*',
          '@mcpflow/decorators': '*',
          '@modelcontextprotocol/server': versions['@modelcontextprotocol/server'],
          '@modelcontextprotocol/node': versions['@modelcontextprotocol/node'],
          bullmq: versions.bullmq,
          zod: '^4.2.0',
        },
      }),
      'serve.mjs': serve(
        "import { WorkflowServer, bullmqTasks, serveHttp } from '@mcpflow/core/v2';\nimport { defineTool } from '@mcpflow/decorators';",
      ),
      'serve.cjs': serve(
        "const { WorkflowServer, bullmqTasks, serveHttp } = require('@mcpflow/core/v2');\nconst { defineTool } = require('@mcpflow/decorators');",
      ),
    },
    packPackages(path.join(work, 'tarballs')),
  );
  if (installed.status !== 0) throw new Error(`npm install failed:\n${installed.output}`);
});

afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

test('the project has bullmq without ioredis', () => {
  expect(fs.existsSync(path.join(dir, 'node_modules/bullmq'))).toBe(true);
  expect(fs.existsSync(path.join(dir, 'node_modules/ioredis'))).toBe(false);
});

test.each(['serve.mjs', 'serve.cjs'])('%s: bullmqTasks fails at start naming the install of bullmq and ioredis', (file) => {
  const ran = runIn(dir, process.execPath, [file]);
  expect(ran.status).toBe(1);
  expect(ran.output).toContain(
    "serveHttp rejected: mcpflow bullmqTasks needs the ioredis package (5.x), which BullMQ 6 runs on but does not install, and 'ioredis' cannot be loaded. Fix: npm install bullmq ioredis",
  );
  expect(ran.output).not.toContain('listening on');
});
