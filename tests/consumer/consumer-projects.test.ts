/**
 * A new user's projects, built from the README alone: the packages are packed with `npm pack`,
 * installed into a fresh ESM and a fresh CommonJS project whose package.json, tsconfig.json and
 * src/server.ts are the README's blocks verbatim, compiled, run, and spoken to by a real client.
 * Then the three places a broken workflow must be reported: tsc, jest and the editor (a real
 * tsserver of an unpatched TypeScript 6, loading the plugin by its documented name).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BROKEN_AT, BROKEN_WORKFLOW, installProject, runIn } from './consumer-project';
import { packPackages } from './packed-packages';
import { readmeBlock } from './readme-blocks';
import { type ServerDiagnostic, TsServerSession } from './tsserver-session';

jest.setTimeout(600_000);

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpflow-consumer-'));
let tarballs: Record<string, string>;

beforeAll(() => {
  fs.mkdirSync(path.join(work, 'tarballs'));
  tarballs = packPackages(path.join(work, 'tarballs'));
});

afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** Every prompt the server lists, called with a value for each required argument: all steps must complete. */
async function talkTo(dir: string): Promise<void> {
  const transport = new StdioClientTransport({ command: process.execPath, args: ['dist/server.js'], cwd: dir, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'consumer-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    const { prompts } = await client.listPrompts();
    expect(prompts.length).toBeGreaterThan(0);
    for (const prompt of prompts) {
      const args = Object.fromEntries(
        (prompt.arguments ?? []).filter((argument) => argument.required).map((argument) => [argument.name, 'alice']),
      );
      const result = await client.getPrompt({ name: prompt.name, arguments: args });
      const execution = result._meta?.['mcpflow/execution'] as { status: string; steps: { status: string }[] };
      expect(execution.status).toBe('completed');
      expect(execution.steps.length).toBeGreaterThan(0);
      expect(execution.steps.every((step) => step.status === 'completed')).toBe(true);
    }
  } finally {
    await client.close();
  }
  // The example says where it serves.
  expect(stderr).toMatch(/serving|listening/i);
}

function tscErrors(output: string): string[] {
  return output.split('\n').filter((line) => /error TS\d+/.test(line));
}

/** The packages a module imports by bare name (`@scope/name/sub.js` → `@scope/name`), node's own excepted. */
function importedPackages(source: string): string[] {
  const specifiers = [...source.matchAll(/^import\s+(?:[^'"]*?\s+from\s+)?'([^']+)'/gm)].map((match) => match[1]);
  const bare = specifiers.filter((specifier) => !specifier.startsWith('.') && !specifier.startsWith('node:'));
  return [
    ...new Set(
      bare.map((specifier) =>
        specifier
          .split('/')
          .slice(0, specifier.startsWith('@') ? 2 : 1)
          .join('/'),
      ),
    ),
  ];
}

describe.each(['esm', 'cjs'] as const)('a fresh %s project set up as the README says', (kind) => {
  const dir = path.join(work, kind);

  test("the README's package.json lists every package the complete example imports (the SDK line it uses included)", () => {
    const manifest = JSON.parse(readmeBlock(`${kind}/package.json`)) as { dependencies?: object; devDependencies?: object };
    const declared = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies });
    const imported = importedPackages(readmeBlock('src/server.ts'));
    expect(imported).toContain('@mcpflow/core');
    expect(imported.filter((name) => !declared.includes(name))).toEqual([]);
  });

  test('installs from the packed tarballs, running prepare (mcpflow patch)', () => {
    const files: Record<string, string> = {
      'package.json': readmeBlock(`${kind}/package.json`),
      'tsconfig.json': readmeBlock(`${kind}/tsconfig.json`),
      'src/server.ts': readmeBlock('src/server.ts'),
    };
    if (kind === 'cjs') files['jest.config.js'] = readmeBlock('cjs/jest.config.js');
    const installed = installProject(dir, files, tarballs);
    expect(installed.output).toContain('mcpflow patch: TypeScript 6.');
    expect(installed.status).toBe(0);
  });

  test('compiles the README example verbatim, runs it, and a real client gets completed workflows', async () => {
    const built = runIn(dir, 'npm', ['run', 'build']);
    expect(tscErrors(built.output)).toEqual([]);
    expect(built.status).toBe(0);
    const emitted = fs.readFileSync(path.join(dir, 'dist/server.js'), 'utf8');
    // The emitted module is in the project's format: ESM imports, or CommonJS requires.
    expect(/\brequire\("@mcpflow\/core"\)/.test(emitted)).toBe(kind === 'cjs');
    await talkTo(dir);
  });

  test('tsc reports a broken workflow on the offending literal', () => {
    fs.writeFileSync(path.join(dir, 'src/broken.ts'), BROKEN_WORKFLOW);
    try {
      const built = runIn(dir, 'npx', ['tsc', '--noEmit']);
      expect(built.status).not.toBe(0);
      expect(tscErrors(built.output)).toEqual([
        expect.stringContaining(
          `src/broken.ts(${BROKEN_AT.line},${BROKEN_AT.column}): error TS91001: Workflow 'review', step 'review': reads binding 'analysis'`,
        ),
      ]);
    } finally {
      fs.rmSync(path.join(dir, 'src/broken.ts'));
    }
  });

  test('mcpflow validate says how many workflows it checked', () => {
    const validated = runIn(dir, 'npx', ['mcpflow', 'validate']);
    expect(validated.output).toContain('Checked 1 workflow in 1 file: no mcpflow errors.');
    expect(validated.status).toBe(0);
  });
});

describe('jest with the preset, under TypeScript 6 defaults (isolatedModules: true)', () => {
  const dir = path.join(work, 'cjs');

  test('passes a test of a sound workflow and fails a run that imports a broken one', () => {
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'tsconfig.json'), 'utf8')).compilerOptions.isolatedModules).toBe(true);
    fs.writeFileSync(path.join(dir, 'src/review.ts'), BROKEN_WORKFLOW.replace("fromStep('analysis')", "fromStep('analysis_result')"));
    fs.writeFileSync(
      path.join(dir, 'src/review.test.ts'),
      "import { Review } from './review';\n\ntest('declares the workflow', () => expect(typeof Review).toBe('function'));\n",
    );
    const sound = runIn(dir, 'npx', ['jest', '--ci']);
    expect(sound.output).toContain('Tests:       1 passed, 1 total');
    expect(sound.output).not.toContain('TS151002');
    expect(sound.status).toBe(0);

    fs.writeFileSync(path.join(dir, 'src/review.ts'), BROKEN_WORKFLOW);
    const broken = runIn(dir, 'npx', ['jest', '--ci']);
    expect(broken.status).not.toBe(0);
    expect(broken.output).toContain("TS91001: Workflow 'review', step 'review': reads binding 'analysis'");

    // The transformer on its own, as the README shows for keeping another preset, with a tsconfig path.
    fs.writeFileSync(
      path.join(dir, 'jest.transformer.config.js'),
      "module.exports = { transform: { '^.+\\\\.tsx?$': ['@mcpflow/transformer/jest/transformer', { tsconfig: '<rootDir>/tsconfig.json' }] } };\n",
    );
    const transformed = runIn(dir, 'npx', ['jest', '--ci', '--config', 'jest.transformer.config.js']);
    expect(transformed.status).not.toBe(0);
    expect(transformed.output).toContain("TS91001: Workflow 'review', step 'review': reads binding 'analysis'");
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

// `prepare` (mcpflow patch) runs on a bare `npm install` only. A later install that changes the
// TypeScript package — a version bump as Renovate or `npm install typescript@…` makes it, here to
// 6.0.2 beside another package — leaves an unpatched compiler behind, and a plain `tsc` build
// then loses mcpflow's checks without a word. (npm 11 does not reinstall an unchanged TypeScript
// for `npm install ms` alone.)
describe('after `npm install <tarballs> <another package> typescript@6.0.2`, which leaves TypeScript unpatched', () => {
  const dir = path.join(work, 'esm');
  const broken = path.join(dir, 'src/broken.ts');
  const isPatched = () => fs.readFileSync(path.join(dir, 'node_modules/typescript/lib/_tsc.js'), 'utf8').startsWith('/// tsp-module:');
  const setBuildScript = (command: string) => {
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    manifest.scripts.build = command;
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  };

  test('the project’s TypeScript is no longer patched (mcpflow patch ran at the first install only)', () => {
    expect(isPatched()).toBe(true);
    const installed = runIn(dir, 'npm', [
      'install',
      ...Object.values(tarballs),
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
    const server = path.join(dir, 'src/server.ts');
    expect((await editorDiagnostics(server)).map(({ code }) => code)).toEqual([]);
    setBuildScript('tsc');
    try {
      const shown = await editorDiagnostics(server);
      const workflowLine =
        readmeBlock('src/server.ts')
          .split('\n')
          .findIndex((line) => line.startsWith('@Workflow(')) + 1;
      expect(shown.map(({ code, start }) => ({ code, start }))).toEqual([{ code: 91036, start: { line: workflowLine, offset: 2 } }]);
      expect(shown[0].text).toMatch(/mcpflow's checks are not part of this project's build: .*not patched.* Fix: .*"build": "tspc"/);
    } finally {
      setBuildScript('tspc');
    }
  });

  test('mcpflow validate, with plain tsc as the build, reports the broken binding and why tsc does not', () => {
    setBuildScript('tsc');
    fs.writeFileSync(broken, BROKEN_WORKFLOW);
    try {
      const validated = runIn(dir, 'npx', ['mcpflow', 'validate']);
      expect(validated.status).toBe(1);
      expect(validated.output).toContain(`src/broken.ts(${BROKEN_AT.line},${BROKEN_AT.column}): error TS91001`);
      expect(validated.output).toMatch(/^Note: mcpflow's checks are not part of this project's build: /m);
    } finally {
      fs.rmSync(broken);
      setBuildScript('tspc');
    }
  });
});
