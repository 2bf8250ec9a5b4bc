/**
 * From an empty folder, as a new user goes: `mcpflow init` (stdin closed), `npm install` with the
 * packed tarballs standing in for the registry, `npm run build`, `npm test` — for an SDK 2.x ESM
 * project and an SDK 1.x CommonJS one, each with only its own SDK line installed. Then the server it
 * builds answers a real client, asking for the other line names the package to install, a
 * broken binding fails the build with TS91001, and a server that cannot start says why once.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { installProject, runIn } from './consumer-project';
import { onNode, otherNode } from './other-node';
import { packPackages } from './packed-packages';

jest.setTimeout(900_000);

const REPO = path.resolve(__dirname, '../..');
const CLI = path.join(REPO, 'packages/transformer/bin/mcpflow.js');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpflow-init-'));
let tarballs: Record<string, string>;

beforeAll(() => {
  fs.mkdirSync(path.join(work, 'tarballs'));
  tarballs = packPackages(path.join(work, 'tarballs'));
});

afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** A test of the project asking runWorkflow for the SDK line it does not have. */
const OTHER_LINE_TEST = {
  esm: `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runWorkflow } from '@mcpflow/testing';
import { PlanMyDay } from './workflow.js';

test('asking for SDK 1.x in a 2.x project names the package to install', async () => {
  await assert.rejects(runWorkflow(PlanMyDay, { sdk: 1, protocol: '2025-11-25', arguments: { city: 'Lyon' } }), {
    name: 'MissingSdkError',
    message: /^runWorkflow with sdk: 1 needs @modelcontextprotocol\\/sdk, which is not installed\\. Fix: npm install -D @modelcontextprotocol\\/sdk/,
  });
});
`,
  cjs: `import { runWorkflow } from '@mcpflow/testing';
import { PlanMyDay } from './workflow';

test('asking for SDK 2.x in a 1.x project names the package to install', async () => {
  await expect(runWorkflow(PlanMyDay, { sdk: 2, arguments: { city: 'Lyon' } })).rejects.toThrow(
    /^runWorkflow with sdk: 2 needs @modelcontextprotocol\\/client, which is not installed\\. Fix: npm install -D @modelcontextprotocol\\/client/,
  );
});
`,
};

describe.each([
  { sdk: 2, module: 'esm', passed: /^# pass 1$/m },
  { sdk: 1, module: 'cjs', passed: /^Tests: {7}1 passed, 1 total$/m },
] as const)('mcpflow init --sdk $sdk --module $module', ({ sdk, module, passed }) => {
  const dir = path.join(work, `sdk${sdk}-${module}`);

  test('writes the project without asking anything', () => {
    const result = spawnSync(process.execPath, [CLI, 'init', dir, '--sdk', String(sdk), '--module', module], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(fs.existsSync(path.join(dir, 'src/workflow.test.ts'))).toBe(true);
  });

  test('npm install (the packed tarballs for the mcpflow packages) installs its SDK line and not the other', () => {
    const installed = installProject(dir, {}, tarballs);
    expect(installed.status).toBe(0);
    const sdkPackages = fs.readdirSync(path.join(dir, 'node_modules/@modelcontextprotocol')).sort();
    expect(sdkPackages).toEqual(sdk === 1 ? ['sdk'] : ['client', 'core', 'node', 'server']);
  });

  test('npm run build compiles it with tspc, and npm test passes', () => {
    const built = runIn(dir, 'npm', ['run', 'build']);
    expect(built.output).not.toMatch(/error TS\d+/);
    expect(built.status).toBe(0);
    const tested = runIn(dir, 'npm', ['test']);
    expect(tested.output).toMatch(passed);
    expect(tested.status).toBe(0);
  });

  test("npm test passes on node 22 too (the registry's node package), build included", () => {
    const bin = otherNode(22);
    if (!bin) return;
    expect(runIn(dir, 'node', ['--version'], onNode(bin)).stdout).toMatch(/^v22\./);
    const tested = runIn(dir, 'npm', ['test'], onNode(bin));
    expect(tested.output).toMatch(passed);
    expect(tested.status).toBe(0);
  });

  test('npm start serves the workflow over stdio: a real client answers its question and runs it to completion', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: ['dist/server.js'], cwd: dir, stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'init-test', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message);
      const [field] = Object.keys((request.params as { requestedSchema: { properties: object } }).requestedSchema.properties);
      return { action: 'accept', content: { [field]: 'a walk' } };
    });
    await client.connect(transport);
    try {
      const result = await client.getPrompt({ name: 'plan_my_day', arguments: { city: 'Lyon' } });
      expect(result._meta?.['mcpflow/execution']).toMatchObject({ status: 'completed' });
      expect(result.messages.at(-1)?.content).toEqual({
        type: 'text',
        text: 'Result of suggest_outfit:\n{"outfit":"a t-shirt, a raincoat and boots"}',
      });
      expect(asked).toEqual(['What is your day in Lyon for?']);
    } finally {
      await client.close();
    }
    expect(stderr).toContain(`sdk${sdk}-${module}: serving MCP over stdio`);
  });

  test('a test asking runWorkflow for the other SDK line gets an error naming the package to install', () => {
    const file = path.join(dir, 'src/other-line.test.ts');
    fs.writeFileSync(file, OTHER_LINE_TEST[module]);
    try {
      const tested = runIn(dir, 'npm', ['test']);
      expect(tested.output).toMatch(module === 'esm' ? /^# pass 2$/m : /^Tests: {7}2 passed, 2 total$/m);
      expect(tested.status).toBe(0);
    } finally {
      fs.rmSync(file);
      fs.rmSync(path.join(dir, 'dist/other-line.test.js'), { force: true });
      fs.rmSync(path.join(dir, 'dist/other-line.test.js.map'), { force: true });
    }
  });

  test('misspelling the binding the workflow reads fails npm run build with TS91001 on it', () => {
    const file = path.join(dir, 'src/workflow.ts');
    const source = fs.readFileSync(file, 'utf8');
    // The step's argument (the doc comment above the class quotes the same call).
    const read = "conditions: field('forecast', 'conditions'),";
    expect(source).toContain(read);
    fs.writeFileSync(file, source.replace(read, "conditions: field('forcast', 'conditions'),"));
    try {
      const built = runIn(dir, 'npm', ['run', 'build']);
      expect(built.status).not.toBe(0);
      const line = source.split('\n').findIndex((text) => text.includes(read)) + 1;
      const column = source.split('\n')[line - 1].indexOf("'forecast'") + 1;
      expect(built.output).toContain(
        `src/workflow.ts(${line},${column}): error TS91001: Workflow 'plan_my_day', step 'outfit': reads binding 'forcast', but no step binds it.`,
      );
    } finally {
      fs.writeFileSync(file, source);
    }
  });

  test.each(['http', 'stdio'])(
    'a server that cannot start over %s prints why once (mcpflow reports it; the template only exits 1)',
    (over) => {
      const file = path.join(dir, 'dist/workflow.js');
      const built = fs.readFileSync(file, 'utf8');
      // A binding misspelled after the build: the start's check (use()) is what refuses it.
      expect(built).toContain("'forecast', 'conditions'");
      // Every occurrence: the doc comment above the class quotes the same call first.
      fs.writeFileSync(file, built.replaceAll("'forecast', 'conditions'", "'forcast', 'conditions'"));
      try {
        const env = { ...process.env, PORT: over === 'http' ? '0' : '' };
        // A server that starts after all would serve until killed: the timeout turns that into a failure here.
        const started = spawnSync(process.execPath, ['dist/server.js'], { cwd: dir, env, encoding: 'utf8', input: '', timeout: 60_000 });
        expect(started.status).toBe(1);
        const reason = "reads binding 'forcast', but no step binds it";
        expect(started.stderr).toContain(`mcpflow: UnknownBindingError 91001: Workflow 'plan_my_day', step 'outfit': ${reason}`);
        expect(started.stderr.split(reason).length - 1).toBe(1);
      } finally {
        fs.writeFileSync(file, built);
      }
    },
  );
});
