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
  test('the fixtures cover a misspelled argument, an unknown argument, a wrong argument type and a renamed tool', () => {
    expect(new Set(expected.map((entry) => entry.code))).toEqual(new Set([2561, 2353, 2322, 2305]));
  });

  test('TypeScript 6, patched with the mcpflow transformer: exactly the expected errors, and nothing added', () => {
    const dir = project('types-ts6', { noEmit: true }, { include: [path.join(FIXTURES, 'types/*.ts')] });
    const { status, stdout } = run('tsc', ['-p', dir], dir);
    expect(status).not.toBe(0);
    expectExactly(stdout, dir);
  });

  // TypeScript's own TS2322 talks about data-source types; with the transformer, the line under it
  // says what is wrong in the workflow's terms. TypeScript's error itself is left as it is.
  const explanations = [
    "  Workflow 'types', step 'days': argument 'days' of tool get_weather takes number | undefined, but promptArg('days') gives a string (a prompt argument always does).",
    "  Workflow 'types', step 'constants': argument 'city' of tool get_weather takes string, but constant(42) gives 42.",
    "  Workflow 'types', step 'constants': argument 'units' of tool get_weather takes \"metric\" | \"imperial\" | undefined, but constant('kelvin') gives \"kelvin\".",
  ];

  test('TypeScript 6, patched: each TS2322 on a definition argument is explained in the workflow’s terms, right below it', () => {
    const dir = project('types-ts6-explained', { noEmit: true }, { include: [path.join(FIXTURES, 'types/argument-type.ts')] });
    const lines = run('tsc', ['-p', dir], dir).stdout.split('\n');
    for (const explanation of explanations) {
      const at = lines.findIndex((line) => line.startsWith(`${explanation} Fix: `));
      expect(at).toBeGreaterThan(0);
      expect(lines[at - 1]).toMatch(/error TS2322: Type '(PromptArgSource|ConstantSource<.+>)' is not assignable to type 'DataSource</);
    }
  });

  test('TypeScript 6 without the transformer prints TypeScript’s errors alone, exactly as before', () => {
    const dir = project('types-ts6-plain', { noEmit: true, plugins: [] }, { include: [path.join(FIXTURES, 'types/*.ts')] });
    const { status, stdout } = run('tsc', ['-p', dir], dir);
    expect(status).not.toBe(0);
    expectExactly(stdout, dir);
    expect(stdout).not.toContain("Workflow '");
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
