/**
 * A new user's projects, built from the README and docs/projects.md alone: the packages are packed
 * with `npm pack`, installed into a fresh ESM project (SDK 2.x, node's test runner) and a fresh
 * CommonJS project (jest) whose files are the pages' code blocks verbatim, compiled with `tspc`,
 * tested, run, and spoken to by real clients. Then the places a broken workflow must be reported:
 * the build, jest and the editor (a real tsserver of an unpatched TypeScript 6, loading the plugin
 * by its documented name).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { allBlocks, projectBlocks, projectFiles, where } from '../docs/doc-blocks';
import { BROKEN_AT, BROKEN_WORKFLOW, runIn } from './consumer-project';
import {
  compiledPath,
  flaggedFiles,
  importedPackages,
  installDocProject,
  installedPackages,
  queryServer,
  runShellBlocks,
  tscErrors,
} from './doc-project';
import { onNode, otherNode } from './other-node';
import { packPackages } from './packed-packages';
import { type ServerDiagnostic, TsServerSession } from './tsserver-session';

jest.setTimeout(600_000);

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpflow-consumer-'));
let tarballs: Record<string, string>;

beforeAll(() => {
  fs.mkdirSync(path.join(work, 'tarballs'));
  tarballs = packPackages(path.join(work, 'tarballs'));
});

afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

describe.each(['esm', 'cjs', 'v1'] as const)('the %s project the pages describe', (project) => {
  const dir = path.join(work, project);
  const files = projectFiles(project);
  const manifest = JSON.parse(files['package.json']) as {
    type?: string;
    dependencies?: object;
    devDependencies?: object;
    scripts: Record<string, string>;
  };

  test('its package.json lists every package its sources import, and builds with tspc', () => {
    const declared = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies });
    const sources = Object.entries(files).filter(([file]) => file.endsWith('.ts'));
    expect(sources.length).toBeGreaterThan(0);
    const imported = [...new Set(sources.flatMap(([, source]) => importedPackages(source)))];
    expect(imported.filter((name) => !declared.includes(name))).toEqual([]);
    expect(manifest.scripts).toMatchObject({ build: 'tspc' });
  });

  test('its install lines name exactly the packages of its package.json', () => {
    const lines = projectBlocks(project).filter((block) => block.use.kind === 'install');
    for (const block of lines) {
      expect({ at: where(block), ...installedPackages(block) }).toEqual({
        at: where(block),
        dependencies: Object.keys(manifest.dependencies ?? {}).sort(),
        devDependencies: Object.keys(manifest.devDependencies ?? {}).sort(),
      });
    }
  });

  test('installs from the packed tarballs', () => {
    const installed = installDocProject(project, dir, tarballs);
    expect(installed.status).toBe(0);
  });

  test('npm run build compiles every block verbatim, in the project’s module format', () => {
    const built = runIn(dir, 'npm', ['run', 'build']);
    expect(tscErrors(built.output)).toEqual([]);
    expect(built.status).toBe(0);
    const emitted = fs.readFileSync(path.join(dir, 'dist/server.js'), 'utf8');
    expect(/\brequire\("@mcpflow\/core\/v[12]"\)/.test(emitted)).toBe(manifest.type !== 'module');
  });

  test('each server block serves: a real client of its line lists and gets its prompts over stdio', async () => {
    const { serve } = flaggedFiles(project);
    expect(serve.length).toBeGreaterThan(0);
    for (const block of serve) {
      const served = await queryServer(dir, block, { transport: 'stdio' });
      expect(served.listed).toEqual(['add_project_task']);
      // No page matches 'alice', so there is nothing to choose from: the run hands off.
      expect(served.runs).toEqual([{ name: 'add_project_task', status: 'handoff' }]);
      expect(served.stderr).toContain('serving MCP over stdio');
    }
  });

  test('mcpflow validate counts the workflow and finds nothing wrong', () => {
    const validated = runIn(dir, 'npx', ['mcpflow', 'validate']);
    expect(validated.output).toMatch(/Checked 1 workflow in \d+ files: no mcpflow errors\./);
    expect(validated.status).toBe(0);
  });

  test('npm run build refuses a broken workflow on the offending literal; plain, unpatched tsc builds it', () => {
    fs.writeFileSync(path.join(dir, 'src/broken.ts'), BROKEN_WORKFLOW);
    try {
      const built = runIn(dir, 'npm', ['run', 'build']);
      expect(built.status).not.toBe(0);
      expect(tscErrors(built.output)).toEqual([
        expect.stringContaining(
          `src/broken.ts(${BROKEN_AT.line},${BROKEN_AT.column}): error TS91001: Workflow 'review', step 'review': reads binding 'analysis'`,
        ),
      ]);
      // noEmitOnError: nothing of the broken build is written.
      expect(fs.existsSync(path.join(dir, 'dist/broken.js'))).toBe(false);
      // The project's TypeScript is not patched (nothing runs `mcpflow patch`): the checks come from tspc alone.
      expect(runIn(dir, 'npx', ['tsc', '--noEmit']).status).toBe(0);
    } finally {
      fs.rmSync(path.join(dir, 'src/broken.ts'));
    }
  });
});

describe.each(['esm', 'cjs'] as const)('npm test in the %s project', (project) => {
  const passed = (output: string) =>
    // jest sees src/*.test.ts only, not their compiled copies in dist/.
    expect(output).toMatch(project === 'esm' ? /^# pass 1$/m : /^Tests: {7}1 passed, 1 total$/m);

  test('runs the tests once, and they pass', () => {
    const tested = runIn(path.join(work, project), 'npm', ['test']);
    expect(tested.status).toBe(0);
    passed(tested.output);
  });

  test("the same script passes on node 22 (the registry's node package), build included", () => {
    const bin = otherNode(22);
    if (!bin) return;
    expect(runIn(path.join(work, project), 'node', ['--version'], onNode(bin)).stdout).toMatch(/^v22\./);
    const tested = runIn(path.join(work, project), 'npm', ['test'], onNode(bin));
    expect(tested.status).toBe(0);
    passed(tested.output);
  });
});

describe('jest with the preset, in the CommonJS project (TypeScript 6 defaults: isolatedModules and noEmitOnError on)', () => {
  const dir = path.join(work, 'cjs');

  test('fails a run that imports a broken workflow with its TS91001, also through the transformer alone', () => {
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'tsconfig.json'), 'utf8')).compilerOptions).toMatchObject({
      isolatedModules: true,
      noEmitOnError: true,
    });
    fs.writeFileSync(path.join(dir, 'src/review.ts'), BROKEN_WORKFLOW);
    fs.writeFileSync(
      path.join(dir, 'src/review.test.ts'),
      "import { Review } from './review';\n\ntest('declares the workflow', () => expect(typeof Review).toBe('function'));\n",
    );
    try {
      const broken = runIn(dir, 'npx', ['jest', '--ci']);
      expect(broken.status).not.toBe(0);
      expect(broken.output).toContain("TS91001: Workflow 'review', step 'review': reads binding 'analysis'");
      // The transformer on its own, as docs/projects.md shows for keeping another preset, with a tsconfig path.
      fs.writeFileSync(
        path.join(dir, 'jest.transformer.config.js'),
        "module.exports = { roots: ['<rootDir>/src'], transform: { '^.+\\\\.tsx?$': ['@mcpflow/transformer/jest/transformer', { tsconfig: '<rootDir>/tsconfig.json' }] } };\n",
      );
      const transformed = runIn(dir, 'npx', ['jest', '--ci', '--config', 'jest.transformer.config.js']);
      expect(transformed.status).not.toBe(0);
      expect(transformed.output).toContain("TS91001: Workflow 'review', step 'review': reads binding 'analysis'");
    } finally {
      for (const file of ['src/review.ts', 'src/review.test.ts', 'jest.transformer.config.js']) fs.rmSync(path.join(dir, file));
    }
  });
});

describe('the README project: what the README says it does', () => {
  const dir = path.join(work, 'esm');

  test('the README shows the three commands of this repo, and CI runs the set-up and test ones', () => {
    const repo = allBlocks().filter((block) => block.page === 'README.md' && block.use.kind === 'repo');
    const commands = repo.flatMap((block) => block.code.split('\n').map((line) => line.replace(/\s+#.*$/, '').trim()));
    expect(commands).toEqual(expect.arrayContaining(['npm ci', 'npm test', 'npm run example']));
    const ci = fs.readFileSync(path.join(__dirname, '../../.ci/run'), 'utf8');
    expect(ci).toMatch(/^npm ci$/m);
    expect(ci).toMatch(/^npm test$/m);
  });

  test('node dist/try.js: the 2.x client pinned to 2026-07-28 answers the question and gets the completed trace', () => {
    const [block] = flaggedFiles('esm').run;
    const ran = runIn(dir, process.execPath, [compiledPath(block.use.path)]);
    expect(ran.status).toBe(0);
    expect(ran.output).toContain("The server asks: Which page should 'Fix the login bug' go on?");
    expect(ran.output).toContain('user: The user answered: MCP Tester');
    expect(ran.output).toContain("Added 'Fix the login bug' to MCP Tester.");
  });

  test('PORT set: the server serves HTTP, where a 2026-07-28 client is asked and the run completes', async () => {
    const [block] = flaggedFiles('esm').serve;
    const served = await queryServer(dir, block, {
      transport: 'http',
      pin: '2026-07-28',
      answer: { page: 'MCP Tester' },
      requests: [{ name: 'add_project_task', arguments: { project: 'mcp tester', task: 'Fix the login bug' } }],
    });
    expect(served.stderr).toMatch(/projects: serving MCP on http:\/\/127\.0\.0\.1:\d+\/mcp/);
    expect(served.runs).toEqual([{ name: 'add_project_task', status: 'completed' }]);
  });

  test('the Inspector CLI lines run against the built server, and prompts/get hands off at the question', () => {
    const ran = runShellBlocks('esm', dir);
    expect(ran.length).toBe(2);
    for (const { command, ran: result } of ran) expect({ command, status: result.status }).toEqual({ command, status: 0 });
    expect(ran[0].ran.output).toContain('"name": "add_project_task"');
    expect(ran[1].ran.output).toContain("I cannot complete step 'added' on the server: the client does not accept questions (elicitation)");
  });
});

describe('the editor plugin in a real, unpatched TypeScript 6 tsserver', () => {
  const dir = path.join(work, 'esm');
  const typescriptDir = path.join(work, 'typescript-6');

  test('loads by its documented name and reports the broken workflow', async () => {
    fs.mkdirSync(typescriptDir, { recursive: true });
    fs.writeFileSync(path.join(typescriptDir, 'package.json'), '{ "private": true }');
    const installed = runIn(typescriptDir, 'npm', ['install', 'typescript@6.0.3', '--prefer-offline', '--no-audit', '--no-fund']);
    expect(installed.status).toBe(0);
    const broken = path.join(dir, 'src/broken.ts');
    fs.writeFileSync(broken, BROKEN_WORKFLOW);
    // Unpatched: its own tsc sees nothing wrong with the project.
    expect(runIn(dir, process.execPath, [path.join(typescriptDir, 'node_modules/typescript/lib/tsc.js'), '--noEmit']).status).toBe(0);

    // As an editor runs it: the project's folder is where plugins are looked up.
    const session = new TsServerSession(
      path.join(typescriptDir, 'node_modules/typescript/lib/tsserver.js'),
      ['--pluginProbeLocations', dir, '--disableAutomaticTypingAcquisition'],
      dir,
    );
    try {
      session.notify('open', { file: broken, projectRootPath: dir });
      const diagnostics = await session.request<ServerDiagnostic[]>('semanticDiagnosticsSync', { file: broken });
      expect(diagnostics.map(({ code, start, text }) => ({ code, start, text: text.split('.')[0] }))).toEqual([
        {
          code: 91001,
          start: { line: BROKEN_AT.line, offset: BROKEN_AT.column },
          text: "Workflow 'review', step 'review': reads binding 'analysis', but no step binds it",
        },
      ]);
    } finally {
      session.close();
      fs.rmSync(broken);
    }
  });
});

// The README's project builds with `tspc`, which loads the transformer itself: it never patches its
// TypeScript (no `prepare: mcpflow patch`), so an install that puts back a plain TypeScript — a
// version bump as Renovate or `npm install typescript@…` makes it, here to 6.0.2 beside another
// package — changes nothing for its build. A plain `tsc` build would have no checks: the editor
// and `mcpflow validate` say so.
describe('after `npm install <tarballs> <another package> typescript@6.0.2`, with TypeScript unpatched', () => {
  const dir = path.join(work, 'esm');
  const broken = path.join(dir, 'src/broken.ts');
  const isPatched = () => fs.readFileSync(path.join(dir, 'node_modules/typescript/lib/_tsc.js'), 'utf8').startsWith('/// tsp-module:');
  /** Every script that compiles with `tspc` compiles with `compiler` instead (the README's build and test both do). */
  const compileWith = (compiler: 'tsc' | 'tspc') => {
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    for (const [name, script] of Object.entries(manifest.scripts)) manifest.scripts[name] = script.replace(/\btspc?\b/g, compiler);
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  };

  test('the project’s TypeScript is not patched, before or after another install', () => {
    expect(isPatched()).toBe(false);
    // The project's own @mcpflow packages again (npm refuses a direct install of one the project overrides: @mcpflow/client).
    const { overrides = {} } = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
      overrides?: Record<string, string>;
    };
    const installed = runIn(dir, 'npm', [
      'install',
      ...Object.entries(tarballs)
        .filter(([name]) => !(name in overrides))
        .map(([, file]) => file),
      'ms',
      'typescript@6.0.2',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
    ]);
    expect(installed.status).toBe(0);
    expect(isPatched()).toBe(false);
  });

  test('npm run build (tspc) still refuses a broken binding; plain tsc builds it, adding no error of mcpflow’s', () => {
    fs.writeFileSync(broken, BROKEN_WORKFLOW);
    try {
      const built = runIn(dir, 'npm', ['run', 'build']);
      expect(built.status).not.toBe(0);
      expect(tscErrors(built.output)).toEqual([
        expect.stringContaining(`src/broken.ts(${BROKEN_AT.line},${BROKEN_AT.column}): error TS91001: Workflow 'review', step 'review'`),
      ]);
      const plain = runIn(dir, 'npx', ['tsc', '--noEmit']);
      expect(tscErrors(plain.output)).toEqual([]);
      expect(plain.status).toBe(0);
    } finally {
      fs.rmSync(broken);
    }
  });

  async function editorDiagnostics(file: string): Promise<ServerDiagnostic[]> {
    const session = new TsServerSession(
      path.join(dir, 'node_modules/typescript/lib/tsserver.js'),
      ['--pluginProbeLocations', dir, '--disableAutomaticTypingAcquisition'],
      dir,
    );
    try {
      session.notify('open', { file, projectRootPath: dir });
      return await session.request<ServerDiagnostic[]>('semanticDiagnosticsSync', { file });
    } finally {
      session.close();
    }
  }

  test('the editor says nothing of the build while it runs tspc, and warns on each @Workflow once it runs plain tsc', async () => {
    const workflow = path.join(dir, 'src/workflow.ts');
    expect((await editorDiagnostics(workflow)).map(({ code }) => code)).toEqual([]);
    compileWith('tsc');
    try {
      const shown = await editorDiagnostics(workflow);
      const workflowLine =
        projectFiles('esm')
          ['src/workflow.ts'].split('\n')
          .findIndex((line) => line.startsWith('@Workflow(')) + 1;
      expect(shown.map(({ code, start }) => ({ code, start }))).toEqual([{ code: 91036, start: { line: workflowLine, offset: 2 } }]);
      expect(shown[0].text).toMatch(/mcpflow's checks are not part of this project's build: .*not patched.* Fix: .*"build": "tspc"/);
    } finally {
      compileWith('tspc');
    }
  });

  test('mcpflow validate, with plain tsc as the build, reports the broken binding and why tsc does not', () => {
    compileWith('tsc');
    fs.writeFileSync(broken, BROKEN_WORKFLOW);
    try {
      const validated = runIn(dir, 'npx', ['mcpflow', 'validate']);
      expect(validated.status).toBe(1);
      expect(validated.output).toContain(`src/broken.ts(${BROKEN_AT.line},${BROKEN_AT.column}): error TS91001`);
      expect(validated.output).toMatch(/^Note: mcpflow's checks are not part of this project's build: /m);
    } finally {
      fs.rmSync(broken);
      compileWith('tspc');
    }
  });
});
