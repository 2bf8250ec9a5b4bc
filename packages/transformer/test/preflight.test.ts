import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPO } from './helpers/tsc';

/**
 * `mcpflow preflight` through the real binary, in projects whose package.json scripts and installed
 * TypeScript (its package.json, as npm lays it out) vary: it stops only a build tspc cannot run —
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

function preflight(dir: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [CLI, 'preflight', ...args], {
    cwd: dir,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const INIT_SCRIPTS = {
  prebuild: 'mcpflow preflight',
  build: 'tspc',
  pretest: 'mcpflow preflight',
  test: 'tspc && node --test dist/*.test.js',
};

test('a tspc build on TypeScript 7 stops with exit code 1, saying why and the fix', () => {
  const result = preflight(project(INIT_SCRIPTS, '7.0.2'));
  expect(result.stderr).toBe(
    "mcpflow preflight: this build cannot run: a script builds with tspc, but the project's TypeScript is 7.0.2: TypeScript 7 has no compiler plugins, " +
      "and tspc crashes inside ts-patch (Cannot read properties of undefined (reading 'LineFeed')) before any check runs.\n" +
      '  Fix: npm install -D typescript@~6.0 (the version @mcpflow/transformer supports), or build with "mcpflow validate && tsc".\n',
  );
  expect(result.stdout).toBe('');
  expect(result.status).toBe(1);
});

test.each([
  ['a tspc build on TypeScript 6', INIT_SCRIPTS, '6.0.3'],
  ['a validate-then-tsc build on TypeScript 7', { prebuild: 'mcpflow preflight', build: 'mcpflow validate && tsc' }, '7.0.2'],
  ['a plain tsc build on TypeScript 7 (mcpflow never fails a plain build)', { build: 'tsc' }, '7.0.2'],
  ['a project with no TypeScript installed', INIT_SCRIPTS, undefined],
])('%s passes without a word', (_, scripts, typescript) => {
  expect(preflight(project(scripts, typescript))).toEqual({ status: 0, stdout: '', stderr: '' });
});

test('an option it does not know is a usage error (exit code 2) naming it', () => {
  expect(preflight(project(INIT_SCRIPTS, '7.0.2'), '--fix')).toEqual({
    status: 2,
    stdout: '',
    stderr: "mcpflow preflight: unknown option '--fix'. Usage: mcpflow preflight\n",
  });
});
