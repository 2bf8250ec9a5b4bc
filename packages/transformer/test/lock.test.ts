import * as fs from 'node:fs';
import * as path from 'node:path';
import { FIXTURES, parseReported, project, run } from './helpers/tsc';

/** A project of one workflow file, `workflow.ts`, written from a fixture of fixtures/lock. */
function lockProject(name: string, fixture: string): { dir: string; use: (fixture: string) => void } {
  const dir = project(name, { noEmit: true }, { files: ['workflow.ts'] });
  const use = (file: string) => fs.copyFileSync(path.join(FIXTURES, 'lock', `${file}.ts`), path.join(dir, 'workflow.ts'));
  use(fixture);
  return { dir, use };
}

/** The project checked by both: the patched tsc, and `mcpflow validate`, each as a user runs it. */
function check(dir: string) {
  const tsc = run('tsc', ['-p', dir], dir);
  const validate = run('cli', ['validate', '-p', dir], dir);
  return { tsc, validate, reported: parseReported(tsc.stdout, dir), validated: parseReported(validate.stdout, dir) };
}

const LOCK = 'mcpflow.lock.json';

describe('mcpflow lock, and the lock check (91050) in tsc and mcpflow validate', () => {
  test('lock, then: unchanged passes, a step appended passes, a step inserted fails 91050, with the old class in previous passes, re-locking accepts', () => {
    const { dir, use } = lockProject('lock-round-trip', 'v1');
    const locked = run('cli', ['lock', '-p', dir], dir);
    expect(locked.status).toBe(0);
    expect(locked.stdout).toContain(`Locked 1 workflow in ${LOCK}: commit it.`);
    const text = fs.readFileSync(path.join(dir, LOCK), 'utf8');
    // One step a line, sorted keys: a diff of the lock is a diff of the steps.
    expect(text).toBe(
      [
        '{',
        '  "format": 2,',
        '  "workflows": {',
        '    "nightly_build": {',
        '      "project": "tsconfig.json",',
        '      "sealable": [2],',
        '      "steps": [',
        '        ["fetch","tool","fetch_sources","sources",[]],',
        '        ["confirm","tool","confirm_build",null,["confirm/answer"]],',
        '        ["build","tool","run_build",null,[]]',
        '      ],',
        '      "version": "1"',
        '    }',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
    expect(run('cli', ['lock', '-p', dir], dir).stdout).toContain(`${LOCK} is up to date (1 workflow).`);

    let checked = check(dir);
    expect([checked.tsc.status, checked.validate.status, checked.reported]).toEqual([0, 0, []]);

    use('appended');
    checked = check(dir);
    expect([checked.tsc.status, checked.validate.status, checked.reported]).toEqual([0, 0, []]);

    use('inserted');
    checked = check(dir);
    const expected = {
      file: path.relative(FIXTURES, path.join(dir, 'workflow.ts')),
      line: 12,
      column: 3,
      code: 91050,
      message:
        "Workflow 'nightly_build', step 'lint': step 2 was 'confirm' (tool 'confirm_build', no binding, asking 'confirm/answer') in the locked version " +
        "and is now 'lint' (tool 'lint_sources', no binding), so runs of the locked version (mcpflow.lock.json, version '1') waiting at this step " +
        'or a later one cannot resume, and no class in previous has the locked steps. ' +
        "Fix: keep the locked version's class (renamed, say NightlyBuildV1) and list it in @Workflow({ previous: [...] }) so those runs resume on it, " +
        'or run `mcpflow lock` to accept that they are refused (docs/deploying.md).',
    };
    expect(checked.tsc.status).not.toBe(0);
    expect(checked.reported).toEqual([expected]);
    expect(checked.validate.status).toBe(1);
    expect(checked.validated).toEqual([expected]);
    const lockCheck = run('cli', ['lock', '--check', '-p', dir], dir);
    expect(lockCheck.status).toBe(1);
    expect(parseReported(lockCheck.stdout, dir)).toEqual([expected]);

    use('kept');
    checked = check(dir);
    expect([checked.tsc.status, checked.validate.status, checked.reported]).toEqual([0, 0, []]);

    // Accepting the loss: the lock now records the inserted step.
    use('inserted');
    expect(run('cli', ['lock', '-p', dir], dir).status).toBe(0);
    expect(fs.readFileSync(path.join(dir, LOCK), 'utf8')).toContain('["lint","tool","lint_sources",null,[]]');
    checked = check(dir);
    expect([checked.tsc.status, checked.validate.status, checked.reported]).toEqual([0, 0, []]);
  });

  test('without a lock file nothing is checked; a lock in a folder above the tsconfig is found', () => {
    const { dir } = lockProject('lock-none', 'inserted');
    let checked = check(dir);
    expect([checked.tsc.status, checked.validate.status, checked.reported]).toEqual([0, 0, []]);

    const { dir: nested, use } = lockProject('lock-above', 'v1');
    expect(run('cli', ['lock', '-p', nested], nested).status).toBe(0);
    const inner = path.join(nested, 'app');
    fs.mkdirSync(inner);
    fs.writeFileSync(path.join(inner, 'tsconfig.json'), JSON.stringify({ extends: '../tsconfig.json', files: ['../workflow.ts'] }));
    use('inserted');
    checked = check(inner);
    expect(checked.tsc.status).not.toBe(0);
    expect(checked.reported.map((entry) => entry.code)).toEqual([91050]);
    expect(checked.validated.map((entry) => entry.code)).toEqual([91050]);
  });

  test('a lock file that is not a lock is 91071, naming the file and the fix', () => {
    const { dir } = lockProject('lock-broken', 'v1');
    fs.writeFileSync(path.join(dir, LOCK), '{ "workflows": [] }');
    const checked = check(dir);
    expect(checked.tsc.status).not.toBe(0);
    expect(checked.reported).toEqual([
      expect.objectContaining({
        code: 91071,
        message: expect.stringMatching(
          /mcpflow\.lock\.json cannot be read as the lock of the project's workflows: it has no "format": 2 \(nor 1\).*Fix: run `mcpflow lock` to write it again/,
        ),
      }),
    ]);
    expect(checked.validated).toEqual(checked.reported);
  });
  /** The 91050 of a run paused on the locked v1 that the class no longer resumes (inserted.ts at line 12). */
  const insertedExpected = (dir: string) => ({
    file: path.relative(FIXTURES, path.join(dir, 'workflow.ts')),
    line: 12,
    column: 3,
    code: 91050,
    message:
      "Workflow 'nightly_build', step 'lint': step 2 was 'confirm' (tool 'confirm_build', no binding, asking 'confirm/answer') in the locked version " +
      "and is now 'lint' (tool 'lint_sources', no binding), so runs of the locked version (mcpflow.lock.json, version '1') waiting at this step " +
      'or a later one cannot resume, and no class in previous has the locked steps. ' +
      "Fix: keep the locked version's class (renamed, say NightlyBuildV1) and list it in @Workflow({ previous: [...] }) so those runs resume on it, " +
      'or run `mcpflow lock` to accept that they are refused (docs/deploying.md).',
  });

  test('the lock records the classes kept in previous: deleting one a locked pause depends on is 91050, keeping it passes', () => {
    const { dir, use } = lockProject('lock-previous', 'kept');
    expect(run('cli', ['lock', '-p', dir], dir).status).toBe(0);
    const text = fs.readFileSync(path.join(dir, LOCK), 'utf8');
    expect(JSON.parse(text).workflows.nightly_build).toEqual({
      previous: [
        {
          sealable: [2],
          steps: [
            ['fetch', 'tool', 'fetch_sources', 'sources', []],
            ['confirm', 'tool', 'confirm_build', null, ['confirm/answer']],
            ['build', 'tool', 'run_build', null, []],
          ],
          version: '1',
        },
      ],
      project: 'tsconfig.json',
      sealable: [3],
      steps: [
        ['fetch', 'tool', 'fetch_sources', 'sources', []],
        ['lint', 'tool', 'lint_sources', null, []],
        ['confirm', 'tool', 'confirm_build', null, ['confirm/answer']],
        ['build', 'tool', 'run_build', null, []],
      ],
      version: '2',
    });
    let checked = check(dir);
    expect([checked.tsc.status, checked.validate.status, checked.reported]).toEqual([0, 0, []]);

    // v1 dropped from previous: runs paused on it (at 'confirm') would be refused.
    use('inserted');
    checked = check(dir);
    expect(checked.tsc.status).not.toBe(0);
    expect(checked.reported).toEqual([insertedExpected(dir)]);
    expect(checked.validate.status).toBe(1);
    expect(checked.validated).toEqual([insertedExpected(dir)]);
  });

  test('a locked workflow renamed or deleted is 91050 naming it; keeping its class passes; re-locking accepts', () => {
    const { dir, use } = lockProject('lock-gone', 'v1');
    expect(run('cli', ['lock', '-p', dir], dir).status).toBe(0);
    const gone = {
      file: path.relative(FIXTURES, path.join(dir, 'workflow.ts')),
      line: 1,
      column: 1,
      code: 91050,
      message:
        "Workflow 'nightly_build': mcpflow.lock.json locks workflow 'nightly_build', but no class of tsconfig.json declares it any more (deleted or renamed), " +
        'so its runs paused on the locked version will be refused. ' +
        "Fix: keep the class of 'nightly_build' (a renamed workflow is a new one: paused runs resume only under the name they started with) " +
        'until no run paused on it can be left, or run `mcpflow lock` to accept that they are refused (docs/deploying.md).',
    };
    for (const fixture of ['renamed', 'deleted']) {
      use(fixture);
      const checked = check(dir);
      expect(checked.tsc.status).not.toBe(0);
      expect(checked.reported).toEqual([gone]);
      expect(checked.validate.status).toBe(1);
      expect(checked.validated).toEqual([gone]);
    }

    use('renamed-kept');
    let checked = check(dir);
    expect([checked.tsc.status, checked.validate.status, checked.reported]).toEqual([0, 0, []]);

    use('renamed');
    expect(run('cli', ['lock', '-p', dir], dir).status).toBe(0);
    checked = check(dir);
    expect([checked.tsc.status, checked.validate.status, checked.reported]).toEqual([0, 0, []]);
  });

  test("a format-1 lock (an earlier release's) still reads and is checked; a lock of a newer format is 91071 saying so", () => {
    const { dir, use } = lockProject('lock-format-1', 'v1');
    const format1 = [
      '{',
      '  "format": 1,',
      '  "workflows": {',
      '    "nightly_build": {',
      '      "sealable": [2],',
      '      "steps": [',
      '        ["fetch","tool","fetch_sources","sources",[]],',
      '        ["confirm","tool","confirm_build",null,["confirm/answer"]],',
      '        ["build","tool","run_build",null,[]]',
      '      ],',
      '      "version": "1"',
      '    }',
      '  }',
      '}',
      '',
    ].join('\n');
    fs.writeFileSync(path.join(dir, LOCK), format1);
    let checked = check(dir);
    expect([checked.tsc.status, checked.validate.status, checked.reported]).toEqual([0, 0, []]);
    use('inserted');
    checked = check(dir);
    expect(checked.reported).toEqual([insertedExpected(dir)]);
    expect(checked.validated).toEqual([insertedExpected(dir)]);

    fs.writeFileSync(path.join(dir, LOCK), format1.replace('"format": 1', '"format": 3'));
    checked = check(dir);
    expect(checked.reported).toEqual([
      expect.objectContaining({
        code: 91071,
        message: expect.stringContaining(
          'it has no "format": 2 (nor 1): it was written by another version of mcpflow (one newer than this one: upgrade)',
        ),
      }),
    ]);
    expect(checked.validated).toEqual(checked.reported);
  });
});
