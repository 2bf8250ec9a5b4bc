/**
 * A project on TypeScript 7 (the native compiler, `typescript@latest`), set up as docs/projects.md
 * says (the README's project, building with `mcpflow validate && tsc`): it installs; `mcpflow patch`
 * says TS 7 cannot be patched without failing; the build runs mcpflow's checks through `validate` (which brings its own TypeScript 6)
 * and refuses a broken workflow, and the tests pass. A build with tspc — the README's, after `npm
 * install typescript@latest` — would crash inside ts-patch: its `prebuild`/`pretest` script
 * (`mcpflow preflight`) stops `npm run build` and `npm test` first with the reason and the fix, and
 * `mcpflow validate` says the same.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BROKEN_AT, BROKEN_WORKFLOW, runIn } from './consumer-project';
import { installDocProject } from './doc-project';
import { packPackages } from './packed-packages';

jest.setTimeout(600_000);

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpflow-ts7-'));
const dir = path.join(work, 'project');

beforeAll(() => {
  fs.mkdirSync(path.join(work, 'tarballs'));
  const installed = installDocProject('ts7', dir, packPackages(path.join(work, 'tarballs')));
  if (installed.status !== 0) throw new Error(`npm install failed:\n${installed.output}`);
});

afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

test('TypeScript 7 is installed, and mcpflow patch says it cannot be patched and what to do instead, exiting 0', () => {
  const version = JSON.parse(fs.readFileSync(path.join(dir, 'node_modules/typescript/package.json'), 'utf8')).version as string;
  expect(version).toMatch(/^7\./);
  const patched = runIn(dir, 'npx', ['mcpflow', 'patch']);
  expect(patched.output).toMatch(/mcpflow patch: TypeScript 7\.\d+\.\d+ cannot be patched/);
  expect(patched.output).toContain('npx mcpflow validate');
  expect(patched.status).toBe(0);
});

test('npm run build validates and builds the README project, and npm test passes', () => {
  const built = runIn(dir, 'npm', ['run', 'build']);
  expect(built.output.split('\n').filter((line) => /error TS/.test(line))).toEqual([]);
  expect(built.output).toMatch(/Checked 1 workflow in \d+ files: no mcpflow errors\./);
  expect(built.status).toBe(0);
  const tested = runIn(dir, 'npm', ['test']);
  expect(tested.output).toMatch(/^# pass 1$/m);
  expect(tested.status).toBe(0);
});

test('npm run build refuses a broken workflow: mcpflow validate reports it with its own TypeScript 6', () => {
  fs.writeFileSync(path.join(dir, 'src/broken.ts'), BROKEN_WORKFLOW);
  const broken = runIn(dir, 'npm', ['run', 'build']);
  expect(broken.status).not.toBe(0);
  expect(broken.output).toContain(
    `src/broken.ts(${BROKEN_AT.line},${BROKEN_AT.column}): error TS91001: Workflow 'review', step 'review': reads binding 'analysis'`,
  );
  expect(broken.output).toMatch(/Checked 2 workflows in \d+ files\./);
});

test("the README's tspc build on TypeScript 7: npm run build and npm test stop with mcpflow preflight's reason and fix, not ts-patch's crash; validate says the same", () => {
  const manifestPath = path.join(dir, 'package.json');
  const manifest = fs.readFileSync(manifestPath, 'utf8');
  const json = JSON.parse(manifest) as { scripts: Record<string, string> };
  // The README's scripts, as they were before `npm install -D typescript@latest`.
  json.scripts.build = 'tspc';
  json.scripts.test = 'tspc && node --test dist/*.test.js';
  expect(json.scripts).toMatchObject({ prebuild: 'mcpflow preflight', pretest: 'mcpflow preflight' });
  fs.writeFileSync(manifestPath, JSON.stringify(json, null, 2));
  try {
    // What the preflight spares the user: tspc itself crashes inside ts-patch.
    expect(runIn(dir, 'npx', ['tspc']).output).toContain("Cannot read properties of undefined (reading 'LineFeed')");
    for (const command of [['run', 'build'], ['test']]) {
      const stopped = runIn(dir, 'npm', command);
      expect(stopped.output).toMatch(
        /mcpflow preflight: npm (run build|test) cannot run: the (build|test) script builds with tspc, but the project's TypeScript is 7\.\d+\.\d+: TypeScript 7 has no compiler plugins/,
      );
      expect(stopped.output).toContain('Fix: npm install -D typescript@~6.0 (the version @mcpflow/transformer supports)');
      expect(stopped.output).not.toMatch(/TypeError|at Object\.<anonymous>|node_modules\/ts-patch/);
      expect(stopped.status).not.toBe(0);
    }
    const validated = runIn(dir, 'npx', ['mcpflow', 'validate']);
    expect(validated.output).toMatch(
      /Note: mcpflow's checks are not part of this project's build: a script builds with tspc, but the project's TypeScript is 7\.\d+\.\d+: TypeScript 7 has no compiler plugins, and tspc crashes inside ts-patch/,
    );
    expect(validated.output).toContain('Fix: npm install -D typescript@~6.0 (the version @mcpflow/transformer supports)');
  } finally {
    fs.writeFileSync(manifestPath, manifest);
  }
});
