import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  BINDING_READ,
  ESM_TEST_SCRIPT,
  PROJECT_DEPENDENCIES,
  QUESTION_KEY,
  projectFiles,
  type ProjectChoices,
} from '../src/cli/project-template';
import { REPO } from './helpers/tsc';

/**
 * `mcpflow init` through the real binary, with stdin closed (it never asks), and the files it writes
 * for each SDK line and module format. tests/consumer/init-project.test.ts installs, builds and
 * tests the projects it writes.
 */
const CLI = path.join(REPO, 'packages/transformer/bin/mcpflow.js');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpflow-init-cli-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

function init(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI, 'init', ...args], { cwd: work, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const COMBINATIONS = [
  { sdk: 1, module: 'esm' },
  { sdk: 1, module: 'cjs' },
  { sdk: 2, module: 'esm' },
  { sdk: 2, module: 'cjs' },
] as const;

describe.each(COMBINATIONS)('a project for SDK $sdk.x, $module', ({ sdk, module }) => {
  const choices: ProjectChoices = { name: 'weather', sdk, module, mcpflow: '^0.1.0' };
  const files = projectFiles(choices);
  const manifest = JSON.parse(files['package.json']) as {
    type?: string;
    scripts: Record<string, string>;
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  const compilerOptions = (JSON.parse(files['tsconfig.json']) as { compilerOptions: Record<string, unknown> }).compilerOptions;
  const installed = { ...manifest.dependencies, ...manifest.devDependencies };

  test('builds with tspc, and tests with jest (CommonJS) or node --test on the build (ESM)', () => {
    expect(manifest.scripts.build).toBe('tspc');
    // npm runs them first: on TypeScript 7, where tspc crashes inside ts-patch, mcpflow's message and fix instead.
    expect(manifest.scripts.prebuild).toBe('mcpflow preflight');
    expect(manifest.scripts.pretest).toBe('mcpflow preflight');
    expect(manifest.scripts.test).toBe(module === 'esm' ? 'tspc && node --test dist/*.test.js' : 'jest');
    expect(ESM_TEST_SCRIPT).toBe('tspc && node --test dist/*.test.js');
    expect(manifest.type).toBe(module === 'esm' ? 'module' : undefined);
  });

  test('has a release script that builds and then runs mcpflow lock, and no lock of its own', () => {
    expect(manifest.scripts.release).toBe('npm run build && mcpflow lock');
    expect(Object.keys(files)).not.toContain('mcpflow.lock.json');
    expect(files['README.md']).toContain('`npm run release` when you release');
  });

  test('depends on the mcpflow packages, its one SDK line (with the Node HTTP transport serveHttp needs on 2.x), zod, TypeScript 6.0 and ts-patch', () => {
    const line =
      sdk === 1
        ? ['@modelcontextprotocol/sdk']
        : ['@modelcontextprotocol/client', '@modelcontextprotocol/node', '@modelcontextprotocol/server'];
    const runner = module === 'cjs' ? ['@types/jest', 'jest', 'ts-jest'] : [];
    expect(Object.keys(installed).sort()).toEqual(
      [
        '@mcpflow/core',
        '@mcpflow/decorators',
        '@mcpflow/testing',
        '@mcpflow/transformer',
        '@types/node',
        'ts-patch',
        'typescript',
        'zod',
        ...line,
        ...runner,
      ].sort(),
    );
    expect(installed.typescript).toBe('~6.0.3');
    if (module === 'cjs') expect(installed.jest).toBe('^29.7.0');
  });

  test('a tsconfig that keeps the checks on: experimentalDecorators, an ES2022 target, noEmitOnError, both plugins', () => {
    expect(compilerOptions).toMatchObject({ experimentalDecorators: true, target: 'es2022', noEmitOnError: true, module: 'nodenext' });
    expect(compilerOptions.plugins).toEqual([
      { transform: '@mcpflow/transformer', transformProgram: true },
      { name: '@mcpflow/transformer/language-service' },
    ]);
  });

  test("one workflow whose second step reads the first step's binding, served from the line's entry, and one runWorkflow test", () => {
    expect(files['src/workflow.ts']).toContain("@Bind('forecast')");
    expect(files['src/workflow.ts']).toContain(`conditions: ${BINDING_READ},`);
    expect(files['src/server.ts']).toContain(`import { WorkflowServer, serveHttp, serveStdio } from '@mcpflow/core/v${sdk}'`);
    expect(files['src/workflow.test.ts']).toContain(`runWorkflow(PlanMyDay, {\n    sdk: ${sdk},`);
    // nodenext ESM names the emitted file; CommonJS does not.
    expect(files['src/workflow.ts'].includes("from './tools.js'")).toBe(module === 'esm');
  });

  test('the workflow asks the user a question (askUser), and the test answers it by its key', () => {
    expect(files['src/workflow.ts']).toContain("occasion: askUser('What is your day in {city} for?'");
    expect(QUESTION_KEY).toBe('outfit/occasion');
    expect(files['src/workflow.test.ts']).toContain("answers: { 'outfit/occasion': 'work' }");
  });

  test("its README's Inspector commands run on node 20: every npx of the Inspector names version 1", () => {
    const inspectors = [...files['README.md'].matchAll(/npx (@modelcontextprotocol\/inspector\S*)/g)].map((match) => match[1]);
    expect(inspectors.length).toBe(2);
    expect(inspectors.filter((spec) => spec !== '@modelcontextprotocol/inspector@1')).toEqual([]);
  });

  test('jest (CommonJS only) runs the tests in src, not their compiled copies in dist', () => {
    if (module === 'esm') return expect(files['jest.config.js']).toBeUndefined();
    expect(files['jest.config.js']).toContain("preset: '@mcpflow/transformer/jest'");
    expect(files['jest.config.js']).toContain("roots: ['<rootDir>/src']");
  });
});

test('the dependency ranges take the toolchain this repo builds and tests with: its major, from a version at or below it', () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as Record<string, Record<string, string>>;
  const tested = { ...manifest.dependencies, ...manifest.devDependencies };
  const version = (range: string) => range.replace(/^[~^]/, '').split('.').map(Number);
  for (const name of Object.keys(PROJECT_DEPENDENCIES) as (keyof typeof PROJECT_DEPENDENCIES)[]) {
    const [major, minor, patch] = version(PROJECT_DEPENDENCIES[name]);
    const [testedMajor, testedMinor, testedPatch] = version(tested[name]);
    expect({ name, major }).toEqual({ name, major: testedMajor });
    expect(minor * 1e6 + patch).toBeLessThanOrEqual(testedMinor * 1e6 + testedPatch);
  }
  expect(PROJECT_DEPENDENCIES.typescript).toMatch(/^~6\.0\./);
});

describe('mcpflow init (CLI), stdin closed', () => {
  test('writes into a new folder, names the package after it, and says what to run next; installs nothing', () => {
    const result = init(['My Server', '--sdk', '1', '--module', 'cjs']);
    expect(result.status).toBe(0);
    const dir = path.join(work, 'My Server');
    expect(fs.readdirSync(dir).sort()).toEqual(['.gitignore', 'README.md', 'jest.config.js', 'package.json', 'src', 'tsconfig.json']);
    expect(fs.existsSync(path.join(dir, 'node_modules'))).toBe(false);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).name).toBe('my-server');
    expect(result.stdout).toContain('Wrote my-server, an MCP server on SDK 1.x (CommonJS), into My Server:\n');
    const named = init(['my-server']);
    expect(named.stdout.split('\n')[0]).toBe('Wrote my-server, an MCP server on SDK 2.x (ES modules):');
    expect(result.stdout).toContain('Next:\n  cd My Server\n  npm install\n  npm run build\n  npm test\n');
  });

  test('defaults to SDK 2.x and ES modules, in the current folder, which may hold a .git folder', () => {
    const dir = path.join(work, 'fresh');
    fs.mkdirSync(path.join(dir, '.git'), { recursive: true });
    const result = spawnSync(process.execPath, [CLI, 'init'], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(result.status).toBe(0);
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({ name: 'fresh', type: 'module', dependencies: { '@modelcontextprotocol/server': '^2.4.0' } });
    expect(result.stdout).not.toContain('cd ');
  });

  test('refuses a folder that holds anything, naming what is there, suggests a folder that is free, and writes nothing', () => {
    const dir = path.join(work, 'taken');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'mine');
    fs.mkdirSync(path.join(work, 'taken-2'));
    const result = init(['taken', '--sdk', '1']);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      'mcpflow init: taken is not empty (it holds notes.txt), and init never overwrites files.\n' +
        '  Give it a new folder instead: mcpflow init taken-3 --sdk 1 --module esm\n',
    );
    expect(fs.readdirSync(dir)).toEqual(['notes.txt']);
    // Run in the folder itself: a new folder inside it.
    const here = spawnSync(process.execPath, [CLI, 'init'], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(here.status).toBe(1);
    expect(here.stderr).toContain('  Give it a new folder instead: mcpflow init my-server --sdk 2 --module esm\n');
  });

  test('--version prints the version of the package, and exits 0', () => {
    const version = JSON.parse(fs.readFileSync(path.join(REPO, 'packages/transformer/package.json'), 'utf8')).version as string;
    for (const flag of ['--version', '-v']) {
      const result = spawnSync(process.execPath, [CLI, flag], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      expect({ flag, status: result.status, stdout: result.stdout, stderr: result.stderr }).toEqual({
        flag,
        status: 0,
        stdout: `${version}\n`,
        stderr: '',
      });
    }
  });

  test.each([
    [['--sdk', '3'], "--sdk is 1 or 2, not '3'"],
    [['--module', 'umd'], "--module is esm or cjs, not 'umd'"],
    [['a', 'b'], "unexpected argument 'b'"],
    [['--sdk'], "unexpected argument '--sdk'"],
    [['--yes'], "unexpected argument '--yes'"],
  ])('bad usage %j: exit 2 with the usage', (args, problem) => {
    expect(init(args)).toEqual({
      status: 2,
      stdout: '',
      stderr: `mcpflow init: ${problem}.\nUsage: mcpflow init [dir] [--sdk 1|2] [--module esm|cjs]\n`,
    });
  });
});
