import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPO } from './helpers/tsc';

/**
 * `mcpflow preflight` through the real binary, in projects whose package.json scripts and installed
 * TypeScript (its package.json, as npm lays it out) vary, run as npm runs it before a script or
 * outside npm: it stops only a script ts-patch cannot run — tspc, or jest with mcpflow's preset, on
 * TypeScript 7 — and says why with the fix; everything else passes without a word.
 * tests/consumer/typescript-7.test.ts runs it before a real `npm run build` on a real TypeScript 7.
 */
const CLI = path.join(REPO, 'packages/transformer/bin/mcpflow.js');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpflow-preflight-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

let projects = 0;
function project(scripts: Record<string, string>, typescript?: string): string {
  const dir = path.join(work, `project-${(projects += 1)}`);
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'p', private: true, scripts }));
  if (typescript) {
    fs.mkdirSync(path.join(dir, 'node_modules/typescript/lib'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'node_modules/typescript/package.json'), JSON.stringify({ name: 'typescript', version: typescript }));
  }
  return dir;
}

/** Runs it as npm would before `event`'s script (`prebuild`, `pretest`), or outside npm. */
function preflight(dir: string, args: string[] = [], event?: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, npm_lifecycle_event: event };
  if (event === undefined) delete env.npm_lifecycle_event;
  const result = spawnSync(process.execPath, [CLI, 'preflight', ...args], {
    cwd: dir,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const PASSED = { status: 0, stdout: '', stderr: '' };
const INIT_SCRIPTS = {
  prebuild: 'mcpflow preflight',
  build: 'tspc',
  pretest: 'mcpflow preflight',
  test: 'tspc && node --test dist/*.test.js',
};

test('before a tspc build on TypeScript 7 it stops npm with exit code 1, saying why and the fix', () => {
  const result = preflight(project(INIT_SCRIPTS, '7.0.2'), [], 'prebuild');
  expect(result.stderr).toBe(
    "mcpflow preflight: npm run build cannot run: the build script builds with tspc, but the project's TypeScript is 7.0.2: TypeScript 7 has no compiler plugins, " +
      "and tspc crashes inside ts-patch (Cannot read properties of undefined (reading 'LineFeed')) before any check runs.\n" +
      '  Fix: npm install -D typescript@~6.0 (the version @mcpflow/transformer supports), or build with "mcpflow validate && tsc".\n',
  );
  expect(result.stdout).toBe('');
  expect(result.status).toBe(1);
});

test('outside npm any script counts; before npm test, the test script and what it runs with npm run', () => {
  const dir = project({ build: 'tsc', test: 'npm run compile && node --test dist', compile: 'tspc' }, '7.0.2');
  expect(preflight(dir).stderr).toMatch(
    /^mcpflow preflight: this build cannot run: a script builds with tspc, but the project's TypeScript is 7\.0\.2/,
  );
  expect(preflight(dir, [], 'pretest').stderr).toMatch(/^mcpflow preflight: npm test cannot run: the test script builds with tspc/);
  expect(preflight(dir, [], 'prebuild')).toEqual(PASSED);
});

test("before jest with mcpflow's preset on TypeScript 7 (ts-jest through ts-patch) it stops npm test too", () => {
  const dir = project(
    { prebuild: 'mcpflow preflight', build: 'mcpflow validate && tsc', pretest: 'mcpflow preflight', test: 'jest' },
    '7.0.2',
  );
  expect(preflight(dir, [], 'pretest')).toEqual(PASSED); // no preset: jest alone needs no ts-patch
  fs.writeFileSync(path.join(dir, 'jest.config.js'), "module.exports = { preset: '@mcpflow/transformer/jest' };\n");
  const stopped = preflight(dir, [], 'pretest');
  expect(stopped.stderr).toMatch(
    /^mcpflow preflight: npm test cannot run: the test script runs jest with mcpflow's preset \(ts-jest through ts-patch\)/,
  );
  expect(stopped.status).toBe(1);
  expect(preflight(dir, [], 'prebuild')).toEqual(PASSED);
  // Outside npm every script counts, jest's with the preset too.
  expect(preflight(dir).stderr).toMatch(/^mcpflow preflight: this build cannot run: a script runs jest with mcpflow's preset/);
});

test.each([
  ['a tspc build on TypeScript 6', INIT_SCRIPTS, '6.0.3', 'prebuild'],
  ['a validate-then-tsc build on TypeScript 7', { prebuild: 'mcpflow preflight', build: 'mcpflow validate && tsc' }, '7.0.2', 'prebuild'],
  [
    'a validate-then-tsc build on TypeScript 7, though the test script still runs tspc',
    { ...INIT_SCRIPTS, build: 'mcpflow validate && tsc' },
    '7.0.2',
    'prebuild',
  ],
  ['a plain tsc build on TypeScript 7 (mcpflow never fails a plain build)', { build: 'tsc' }, '7.0.2', undefined],
  ['a project with no TypeScript installed', INIT_SCRIPTS, undefined, 'pretest'],
])('%s passes without a word', (_, scripts, typescript, event) => {
  expect(preflight(project(scripts, typescript), [], event)).toEqual(PASSED);
});

test('an option it does not know is a usage error (exit code 2) naming it', () => {
  expect(preflight(project(INIT_SCRIPTS, '7.0.2'), ['--fix'])).toEqual({
    status: 2,
    stdout: '',
    stderr: "mcpflow preflight: unknown option '--fix'. Usage: mcpflow preflight\n",
  });
});
