import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { FIXTURES, expectations, parseReported, project, run } from './helpers/tsc';

// mcpflow's decorators are TypeScript's legacy decorators. With experimentalDecorators off, the
// build, the CLI and the program at load time each say so in mcpflow's words.
const [expected] = expectations('standard-decorators');
const fixture = path.join(FIXTURES, 'standard-decorators/get-hint.ts');
const standard = { experimentalDecorators: false, emitDecoratorMetadata: false };

describe('decorator mode: experimentalDecorators off', () => {
  test('the patched tsc reports TS91031 on the @Workflow decorator', () => {
    const dir = project('standard-decorators', { ...standard, noEmit: true }, { files: [fixture] });
    const { status, stdout } = run('tsc', ['-p', dir], dir);
    expect(status).not.toBe(0);
    const ours = parseReported(stdout, dir).filter((entry) => entry.code >= 91001 && entry.code <= 91099);
    expect(ours).toEqual([
      {
        file: expected.file,
        line: expected.line,
        column: expected.column,
        code: expected.code,
        message: expect.stringContaining(expected.fragment),
      },
    ]);
    expect(ours[0].message).toMatch(
      /^Workflow 'get_hint': .* Fix: set "experimentalDecorators": true in the compilerOptions of tsconfig.json/,
    );
  });

  test.each([
    ['experimentalDecorators off', standard],
    ['target esnext without experimentalDecorators', { ...standard, target: 'esnext' }],
  ])('%s: the patched tsc reports TS91031 alone, not the TS1240 of each decorator it explains', (_label, options) => {
    const dir = project('standard-decorators-alone', { ...options, noEmit: true }, { files: [fixture] });
    const { status, stdout } = run('tsc', ['-p', dir], dir);
    expect(status).not.toBe(0);
    expect(parseReported(stdout, dir).map((entry) => `${entry.line}:${entry.column} TS${entry.code}`)).toEqual([
      `${expected.line}:${expected.column} TS91031`,
    ]);
  });

  test('plain tsc (no transformer) reports what TypeScript itself reports: a TS1240 per property decorator', () => {
    const dir = project('standard-decorators-plain', { ...standard, noEmit: true, plugins: [] }, { files: [fixture] });
    const { status, stdout } = run('tsc', ['-p', dir], dir);
    expect(status).not.toBe(0);
    expect(parseReported(stdout, dir).map((entry) => `${entry.line}:${entry.column} TS${entry.code}`)).toEqual([
      '9:4 TS1240',
      '10:4 TS1240',
    ]);
  });

  test('a decorator of your own keeps its TS1240: only the errors TS91031 explains are left out', () => {
    const own = path.join(FIXTURES, 'standard-decorators/own-decorator.ts');
    const dir = project('standard-decorators-own', { ...standard, noEmit: true }, { files: [fixture, own] });
    const { stdout } = run('tsc', ['-p', dir], dir);
    expect(parseReported(stdout, dir).map((entry) => `${entry.file}(${entry.line}) TS${entry.code}`)).toEqual([
      'standard-decorators/get-hint.ts(7) TS91031',
      'standard-decorators/own-decorator.ts(7) TS1240',
    ]);
  });

  test('mcpflow validate reports it and exits 1, although it prints only mcpflow diagnostics', () => {
    const dir = project('standard-decorators-cli', { ...standard, noEmit: true }, { files: [fixture] });
    const cli = run('cli', ['validate', '-p', dir], dir);
    expect(cli.status).toBe(1);
    expect(parseReported(cli.stdout, dir).map((entry) => `${entry.line}:${entry.column} TS${entry.code}`)).toEqual([
      `${expected.line}:${expected.column} TS91031`,
    ]);
  });

  test('the emitted program throws DecoratorModeError naming the decorator and the fix, not a bare TypeError', () => {
    const dir = project('standard-decorators-emit', { ...standard, outDir: 'out', rootDir: FIXTURES }, { files: [fixture] });
    run('tsc', ['-p', dir], dir);
    const loaded = spawnSync(
      process.execPath,
      ['-e', `require(${JSON.stringify(path.join(dir, 'out/standard-decorators/get-hint.js'))})`],
      { cwd: dir, encoding: 'utf8' },
    );
    expect(loaded.status).not.toBe(0);
    expect(loaded.stderr).toContain(
      "DecoratorModeError: @Bind on property 'progress': it was applied as a standard ECMAScript decorator, but mcpflow's decorators are TypeScript's legacy decorators: experimentalDecorators is off where this code was compiled. Fix: set \"experimentalDecorators\": true",
    );
    expect(loaded.stderr).not.toContain('TypeError');
  });
});
