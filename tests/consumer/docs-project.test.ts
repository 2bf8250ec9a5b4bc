/**
 * The guides' code, run: every block of docs/*.md marked for the `docs` project, with the README's
 * package.json, tsconfig.json and workflow, is written verbatim into one fresh ES-module project
 * installed from the packed tarballs (with SDK 1.x added: the guides serve on both lines). It must
 * build with the checks on; each example shown failing must fail with exactly its code; `use()` must
 * accept every workflow the guides declare; each server must serve a real client of its line; the
 * guides' tests must pass under `npm test`; each shell line must succeed, and each output shown must
 * be what its command prints.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { outputBlocks, projectFiles, where } from '../docs/doc-blocks';
import { SERVER_KIND, otlpReceiver } from '../helpers/otlp-receiver';
import { installProject, runIn } from './consumer-project';
import { compiledPath, compileFailing, flaggedFiles, queryServer, runShellBlocks, tscErrors, useEveryWorkflow } from './doc-project';
import { packPackages } from './packed-packages';

jest.setTimeout(600_000);

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpflow-docs-'));
const dir = path.join(work, 'docs');
const repoManifest = JSON.parse(fs.readFileSync(path.join(__dirname, '../../package.json'), 'utf8')) as {
  devDependencies: Record<string, string>;
};

beforeAll(() => {
  fs.mkdirSync(path.join(work, 'tarballs'));
  const files = projectFiles('docs');
  const manifest = JSON.parse(files['package.json']) as { dependencies: Record<string, string> };
  manifest.dependencies['@modelcontextprotocol/sdk'] = repoManifest.devDependencies['@modelcontextprotocol/sdk'];
  const installed = installProject(
    dir,
    { ...files, 'package.json': JSON.stringify(manifest, null, 2) },
    packPackages(path.join(work, 'tarballs')),
  );
  if (installed.status !== 0) throw new Error(`npm install failed:\n${installed.output}`);
});

afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

test('every block builds with tspc and the checks on', () => {
  const built = runIn(dir, 'npm', ['run', 'build']);
  expect(tscErrors(built.output)).toEqual([]);
  expect(built.status).toBe(0);
});

test('each example shown failing fails with exactly the code the page says', () => {
  const { fails } = flaggedFiles('docs');
  expect(fails.length).toBeGreaterThan(0);
  for (const block of fails) {
    const errors = compileFailing(dir, block);
    expect({ at: where(block), errors }).toEqual({
      at: where(block),
      errors: [expect.stringMatching(new RegExp(`^${block.use.path}\\(\\d+,\\d+\\): error ${block.use.fails}: `))],
    });
  }
});

test('use() accepts every workflow the guides declare', () => {
  const ran = useEveryWorkflow('docs', dir);
  expect(ran.output).not.toContain('Error');
  expect(ran.status).toBe(0);
  expect(Number(/use\(\) accepted (\d+) workflows/.exec(ran.output)?.[1])).toBeGreaterThanOrEqual(10);
});

test('each server block serves a real client of its SDK line, on every transport it serves', async () => {
  const { serve } = flaggedFiles('docs');
  expect(serve.length).toBeGreaterThan(0);
  for (const block of serve) {
    const transports = (['stdio', 'http'] as const).filter((transport) =>
      block.code.includes(transport === 'stdio' ? 'serveStdio(' : 'serveHttp('),
    );
    expect({ at: where(block), transports: transports.length > 0 }).toEqual({ at: where(block), transports: true });
    for (const transport of transports) {
      const served = await queryServer(dir, block, { transport });
      expect({ at: where(block), transport, listed: served.listed.length > 0 }).toEqual({ at: where(block), transport, listed: true });
      for (const run of served.runs) expect(['completed', 'handoff', 'failed']).toContain(run.status);
    }
  }
});

test("npm test runs the guides' tests (docs/testing.md), on both SDK lines, and every one passes", () => {
  const tests = Object.entries(projectFiles('docs')).filter(([file]) => file.endsWith('.test.ts'));
  // The tests named by a string literal; those named by a template run once per SDK line and protocol.
  const named = tests.flatMap(([, source]) => [...source.matchAll(/^\s*test\((['"])(.+?)\1,/gm)].map((match) => match[2]));
  expect(named.length).toBeGreaterThan(5);
  const tested = runIn(dir, 'npm', ['test']);
  const passed = [...tested.output.matchAll(/^ok \d+ - (.+)$/gm)].map((match) => match[1]);
  expect(passed).toEqual(expect.arrayContaining(named));
  expect(passed.filter((name) => /^SDK [12]\.x, /.test(name)).sort()).toEqual([
    "SDK 1.x, 2025-11-25: the user's answer goes to add_task",
    "SDK 2.x, 2025-11-25: the user's answer goes to add_task",
    "SDK 2.x, 2026-07-28: the user's answer goes to add_task",
  ]);
  expect(tested.output).toMatch(/^# fail 0$/m);
  expect(tested.status).toBe(0);
});

test('each script block of the guides runs to the end (exit 0)', () => {
  const { run } = flaggedFiles('docs');
  expect(run.length).toBeGreaterThan(0);
  for (const block of run) {
    const ran = runIn(dir, process.execPath, [compiledPath(block.use.path)]);
    expect({ at: where(block), status: ran.status, output: ran.status === 0 ? '' : ran.output }).toEqual({
      at: where(block),
      status: 0,
      output: '',
    });
  }
});

test('each shell line of the guides succeeds in the project', () => {
  const ran = runShellBlocks('docs', dir);
  expect(ran.length).toBeGreaterThan(0);
  for (const { block, command, ran: result } of ran) {
    expect({ at: where(block), command, status: result.status }).toEqual({ at: where(block), command, status: 0 });
  }
});

test('each output a guide shows is exactly what its command prints', () => {
  const outputs = outputBlocks('docs');
  expect(outputs.length).toBeGreaterThan(0);
  for (const { block, command } of outputs) {
    const ran = runIn(dir, 'sh', ['-c', command]);
    expect({ at: where(block), command, status: ran.status, stdout: ran.stdout }).toEqual({
      at: where(block),
      command,
      status: 0,
      stdout: block.code,
    });
  }
});

test("the tracing guide's server sends each run's spans over OTLP/HTTP to a collector, in the client's trace", async () => {
  const receiver = await otlpReceiver();
  const client = new Client({ name: 'doc-test', version: '1.0.0' });
  try {
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['dist/traced-server.js'],
        cwd: dir,
        // Where the guide's exporter sends (its default is localhost:4318), and a short batch delay.
        env: { ...getDefaultEnvironment(), OTEL_EXPORTER_OTLP_ENDPOINT: `${receiver.base}/docs`, OTEL_BSP_SCHEDULE_DELAY: '50' },
        stderr: 'pipe',
      }),
    );
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const result = await client.getPrompt({
      name: 'get_hint',
      arguments: { player: 'alice' },
      _meta: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
    });
    expect(result._meta?.['mcpflow/execution']).toMatchObject({ status: 'completed' });
    const spans = await receiver.runSpans('docs', 3);
    const run = spans.find((span) => span.kind === SERVER_KIND)!;
    expect(run).toMatchObject({ name: 'prompts/get get_hint', traceId, parentSpanId: '00f067aa0ba902b7' });
    // Sorted: the batches may arrive in either order.
    expect(
      spans
        .filter((span) => span.parentSpanId === run.spanId)
        .map((span) => span.name)
        .sort(),
    ).toEqual(['execute_tool get_my_progress', 'resources/read if://walkthrough/{game_id}']);
  } finally {
    await client.close();
    await receiver.close();
  }
});
