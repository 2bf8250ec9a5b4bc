import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ErrorCodes } from '@mcpflow/core/rules';
import { FIXTURES, REPO, TSC, expectations, parseReported, project, run } from './helpers/tsc';

const invalid = expectations('invalid');
const key = (entry: { file: string; code: number; line: number; column: number }) =>
  `${entry.file}(${entry.line},${entry.column}) TS${entry.code}`;

describe('the patched tsc fails on broken workflow wiring', () => {
  test('every rule the compiler checks has a failing fixture', () => {
    const codes = new Set(invalid.map((entry) => entry.code));
    // Checked only against what a server registers (at connect(), or at use() for definitions) or
    // by use() itself; for a tool definition TypeScript reports an unknown argument (TS2561).
    // (An unregistered tool is compiled where the program shows the registrations: a typo of one.)
    // DecoratorMode needs a program of its own: decorator-mode.test.ts. A skill on SDK 1.x is the
    // server's line, which the compiler does not know.
    const notCompiled = new Set<number>([
      ErrorCodes.UnregisteredResource,
      ErrorCodes.UnknownToolArgument,
      ErrorCodes.DefinitionConflict,
      ErrorCodes.NotAWorkflow,
      ErrorCodes.DecoratorMode,
      // A warning of the editor plugin and `mcpflow validate` when the build would not run the checks, never a tsc error.
      ErrorCodes.ChecksNotInBuild,
      ErrorCodes.SkillFaceUnavailable,
      ErrorCodes.TaskFaceUnavailable,
      // Need a mcpflow.lock.json beside the project: lock.test.ts.
      ErrorCodes.LockedShapeChanged,
      ErrorCodes.InvalidLockFile,
    ]);
    expect(Object.values(ErrorCodes).filter((code) => !notCompiled.has(code) && !codes.has(code))).toEqual([]);
  });

  test.each([
    ['noemit', { noEmit: true }],
    ['emit', { outDir: 'out', rootDir: FIXTURES }],
  ] as [string, Record<string, unknown>][])(
    '%s: each fixture reports exactly its expected diagnostics, on the offending literal',
    (label, options) => {
      const dir = project(`invalid-${label}`, options, { include: [path.join(FIXTURES, 'invalid/*.ts')] });
      const { status, stdout } = run('tsc', ['-p', dir], dir);
      expect(status).not.toBe(0);
      const reported = parseReported(stdout, dir);
      expect(reported.map(key).sort()).toEqual(invalid.map(key).sort());
      for (const expected of invalid) {
        const match = reported.find((entry) => key(entry) === key(expected));
        expect(match?.message).toContain(expected.fragment);
        expect(match?.message).toMatch(/^Workflow '.+'.*Fix: /);
      }
    },
  );

  test('valid fixtures and every example compile with zero diagnostics', () => {
    const dir = project(
      'valid',
      { noEmit: true },
      { include: [path.join(FIXTURES, 'valid/*.ts'), path.join(REPO, 'examples/*/server.ts')] },
    );
    const { status, stdout } = run('tsc', ['-p', dir], dir);
    expect(stdout.trim()).toBe('');
    expect(status).toBe(0);
  });

  test('--noEmitOnError writes no JavaScript for a broken workflow', () => {
    const dir = project(
      'no-emit-on-error',
      { outDir: 'out', rootDir: FIXTURES, noEmitOnError: true },
      { files: [path.join(FIXTURES, 'invalid/unknown-binding.ts')] },
    );
    const { status, stdout } = run('tsc', ['-p', dir], dir);
    expect(status).not.toBe(0);
    expect(stdout).toContain('error TS91001');
    expect(fs.existsSync(path.join(dir, 'out'))).toBe(false);
  });

  test('tsc -b reports a broken workflow in a referenced project', () => {
    const lib = project(
      'build-lib',
      { composite: true, declaration: true, outDir: 'out', rootDir: FIXTURES },
      { files: [path.join(FIXTURES, 'invalid/unbound-uri-variable.ts')] },
    );
    const app = project(
      'build-app',
      { outDir: 'out', rootDir: FIXTURES },
      { files: [path.join(FIXTURES, 'valid/look-alike.ts')], references: [{ path: lib }] },
    );
    const { status, stdout } = run('tsc', ['-b', app], app);
    expect(status).not.toBe(0);
    expect(parseReported(stdout, app).map(key)).toEqual(
      invalid.filter((entry) => entry.file === 'invalid/unbound-uri-variable.ts').map(key),
    );
  });

  test('tsc --watch reports a broken workflow, and reports again when the file changes', async () => {
    const dir = project('watch', { noEmit: true }, { include: ['*.ts'] });
    const file = path.join(dir, 'workflow.ts');
    fs.copyFileSync(path.join(FIXTURES, 'invalid/unknown-binding.ts'), file);
    const watcher = spawn(process.execPath, [TSC, '-w', '-p', dir, '--preserveWatchOutput'], { cwd: dir });
    let output = '';
    const reports = (count: number) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`tsc --watch printed:\n${output}`)), 20000);
        const check = () => {
          if ((output.match(/Found \d+ errors?\. Watching for file changes\./g) ?? []).length >= count) {
            clearTimeout(timer);
            resolve();
          } else setTimeout(check, 50);
        };
        check();
      });
    watcher.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      await reports(1);
      expect(output).toContain('error TS91001');
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace("fromStep('analysis')", "fromStep('analysis_resul')"));
      await reports(2);
      expect(output.slice(output.indexOf('Found 1 error'))).toContain("reads binding 'analysis_resul'");
    } finally {
      watcher.kill();
    }
  });
});
