import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FIXTURES, REPO, expectations, parseReported, project, run } from './helpers/tsc';
import { TYPESCRIPT_7, typescript7 } from './helpers/typescript-7';

// The checks a tool definition gives in plain TypeScript: no transformer involved, so they hold
// under TypeScript 7 (which has no plugin API) exactly as under the patched TypeScript 6.
const expected = expectations('types');
const key = (entry: { file: string; code: number; line: number; column: number }) =>
  `${entry.file}(${entry.line},${entry.column}) TS${entry.code}`;

function expectExactly(output: string, cwd: string): void {
  const reported = parseReported(output, cwd);
  expect(reported.map(key).sort()).toEqual(expected.map(key).sort());
  for (const entry of expected) expect(reported.find((found) => key(found) === key(entry))?.message).toContain(entry.fragment);
}

describe('tool definitions: TypeScript itself checks args keys and value types', () => {
  test('the fixtures cover a misspelled argument, a wrong argument type and a renamed tool', () => {
    expect(new Set(expected.map((entry) => entry.code))).toEqual(new Set([2561, 2322, 2305]));
  });

  test('TypeScript 6, patched with the mcpflow transformer: exactly the expected errors, and nothing added', () => {
    const dir = project('types-ts6', { noEmit: true }, { include: [path.join(FIXTURES, 'types/*.ts')] });
    const { status, stdout } = run('tsc', ['-p', dir], dir);
    expect(status).not.toBe(0);
    expectExactly(stdout, dir);
  });

  test(`TypeScript ${TYPESCRIPT_7}, without any transformer: the same errors at the same places`, () => {
    const tsc = typescript7();
    const dir = path.join(__dirname, '.work/types-ts7');
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    const config = {
      compilerOptions: {
        target: 'es2022',
        module: 'commonjs',
        moduleResolution: 'bundler',
        strict: true,
        experimentalDecorators: true,
        noEmit: true,
        skipLibCheck: true,
        types: [],
      },
      include: [path.join(FIXTURES, 'types/*.ts')],
    };
    fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(config, null, 2));
    const result = spawnSync(process.execPath, [tsc, '--version'], { encoding: 'utf8' });
    expect(result.stdout.trim()).toBe(`Version ${TYPESCRIPT_7}`);
    const checked = spawnSync(process.execPath, [tsc, '-p', dir], { cwd: dir, encoding: 'utf8' });
    expect(checked.status).not.toBe(0);
    expectExactly(checked.stdout + checked.stderr, dir);
  }, 300_000);

  test(`TypeScript ${TYPESCRIPT_7} compiles the valid fixtures and the examples that use definitions with no error`, () => {
    const tsc = typescript7();
    const dir = path.join(__dirname, '.work/valid-ts7');
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    const config = {
      compilerOptions: {
        target: 'es2022',
        module: 'commonjs',
        moduleResolution: 'bundler',
        strict: true,
        experimentalDecorators: true,
        noEmit: true,
        skipLibCheck: true,
        types: ['node'],
      },
      include: [path.join(FIXTURES, 'valid/*.ts'), path.join(REPO, 'examples/*/server.ts')],
    };
    fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(config, null, 2));
    const checked = spawnSync(process.execPath, [tsc, '-p', dir], { cwd: dir, encoding: 'utf8' });
    expect(checked.stdout + checked.stderr).toBe('');
    expect(checked.status).toBe(0);
  }, 300_000);
});
