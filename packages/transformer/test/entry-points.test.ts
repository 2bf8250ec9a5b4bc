import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import init from '../src/language-service-plugin';
import { CLI, FIXTURES, PLUGIN, REPO, expectations, parseReported, project, run } from './helpers/tsc';

const invalid = expectations('invalid');
/** The code of the editor's notice that the project's build does not run mcpflow's checks. */
const CHECKS_OFF_IN_BUILD = 91036;
const key = (entry: { file: string; code: number; line: number; column: number }) =>
  `${entry.file}(${entry.line},${entry.column}) TS${entry.code}`;
const invalidProject = () => project('cli-invalid', { noEmit: true }, { include: [path.join(FIXTURES, 'invalid/*.ts')] });

describe('mcpflow validate (CLI)', () => {
  test('reports the same diagnostics as tsc, in its format, and exits 1', () => {
    const dir = invalidProject();
    const cli = run('cli', ['validate', '-p', path.join(dir, 'tsconfig.json')], dir);
    const tsc = run('tsc', ['-p', dir], dir);
    expect(cli.status).toBe(1);
    expect(parseReported(cli.stdout, dir)).toEqual(parseReported(tsc.stdout, dir));
    expect(cli.stdout).toContain(`Found ${invalid.length} mcpflow errors.`);
    expect(cli.stdout).toMatch(/^Checked \d+ workflows in \d+ files\.$/m);
  });

  test('--json lists file, line, column, code and message', () => {
    const dir = invalidProject();
    // The JSON is stdout; notes go to stderr.
    const cli = spawnSync(process.execPath, [CLI, 'validate', '-p', dir, '--json'], { cwd: dir, encoding: 'utf8' });
    expect(cli.status).toBe(1);
    const entries = JSON.parse(cli.stdout) as {
      file: string;
      line: number;
      column: number;
      code: number;
      message: string;
      category: string;
    }[];
    const asExpected = entries.map((entry) => ({ ...entry, file: path.relative(FIXTURES, path.resolve(dir, entry.file)) }));
    expect(asExpected.map(key).sort()).toEqual(invalid.map(key).sort());
    expect(entries.every((entry) => entry.category === 'error')).toBe(true);
  });

  test('exits 0 on a clean project, and 2 with a usage message on a bad flag', () => {
    const dir = project('cli-valid', { noEmit: true }, { include: [path.join(FIXTURES, 'valid/*.ts')] });
    // The valid fixtures and the shared modules they import (tool definitions, a base class of steps).
    const files = ['valid', 'shared'].flatMap((folder) =>
      fs
        .readdirSync(path.join(FIXTURES, folder))
        .filter((file) => file.endsWith('.ts'))
        .map((file) => path.join(FIXTURES, folder, file)),
    );
    const workflows = files.reduce((count, file) => count + (fs.readFileSync(file, 'utf8').match(/^@Workflow\(/gm) ?? []).length, 0);
    const clean = run('cli', ['validate', '-p', dir], dir);
    expect(clean.status).toBe(0);
    const [checked, note, ...rest] = clean.stdout.split('\n');
    expect(checked).toBe(`Checked ${workflows} workflows in ${files.length} files: no mcpflow errors.`);
    // The fixtures' tools named by string have stubs in tests, not registrations: left to the server's start.
    expect(note).toMatch(
      /^Note: \d+ tool names given by string are registered nowhere this program shows, so the server checks them at start: 'list_pages' \(workflow 'add_project_task', step 'pages'\), /,
    );
    expect(rest).toEqual(['']);
    const bad = run('cli', ['validate', '--nope'], dir);
    expect(bad.status).toBe(2);
    expect(bad.stdout).toContain("unknown option '--nope'");
  });

  test('a string tool name a letter off a tool the program defines or registers is an error on the literal; one far from all is left to start, in a note', () => {
    const dir = project('cli-tool-names', { noEmit: true }, { files: [path.join(FIXTURES, 'invalid/unregistered-tool-name.ts')] });
    const cli = run('cli', ['validate', '-p', dir], dir);
    expect(cli.status).toBe(1);
    expect(parseReported(cli.stdout, dir).map(key)).toEqual([
      'invalid/unregistered-tool-name.ts(24,17) TS91016',
      'invalid/unregistered-tool-name.ts(30,17) TS91016',
    ]);
    expect(cli.stdout).toContain(
      "Note: 1 tool name given by string is registered nowhere this program shows, so the server checks it at start: 'archive_report' (workflow 'forecast_alert', step 'archived').",
    );
  });

  test('where the program cannot show the registrations (a name not a literal), no string name fails: validate notes them, tsc passes', () => {
    const dir = project('cli-hidden-tools', { noEmit: true }, { files: [path.join(FIXTURES, 'tool-names/hidden-registrations.ts')] });
    expect(run('tsc', ['-p', dir], dir)).toEqual({ status: 0, stdout: '' });
    expect(run('cli', ['validate', '-p', dir], dir)).toEqual({
      status: 0,
      stdout:
        'Checked 1 workflow in 1 file: no mcpflow errors.\n' +
        "Note: 1 tool name given by string is registered nowhere this program shows, so the server checks it at start: 'get_forcast' (workflow 'hidden_alert', step 'forecast').\n",
    });
  });

  test('a solution-style tsconfig ("files": [] and references) checks every project it references', () => {
    const broken = project('cli-solution-broken', { noEmit: true }, { files: [path.join(FIXTURES, 'invalid/unknown-binding.ts')] });
    const sound = project('cli-solution-sound', { noEmit: true }, { files: [path.join(FIXTURES, 'valid/every-source.ts')] });
    const solution = path.join(path.dirname(broken), 'cli-solution');
    fs.rmSync(solution, { recursive: true, force: true });
    fs.mkdirSync(solution, { recursive: true });
    fs.writeFileSync(
      path.join(solution, 'tsconfig.json'),
      JSON.stringify({ files: [], references: [{ path: broken }, { path: sound }, { path: broken }] }),
    );
    const cli = run('cli', ['validate', '-p', solution], solution);
    expect(cli.status).toBe(1);
    expect(cli.stdout).toContain('error TS91001');
    expect(cli.stdout).toMatch(/^Checked 2 workflows in \d+ files\.$/m);
    expect(cli.stdout).toContain('Found 1 mcpflow error.');
  });

  test("reports TypeScript's own errors in workflow files too, naming the workflow and step, so it never passes what tsc rejects", () => {
    const types = expectations('types');
    const dir = project('cli-types', { noEmit: true, plugins: [] }, { include: [path.join(FIXTURES, 'types/*.ts')] });
    const cli = run('cli', ['validate', '-p', dir], dir);
    expect(cli.status).toBe(1);
    const reported = parseReported(cli.stdout, dir);
    expect(reported.map(key).sort()).toEqual(types.map(key).sort());
    const message = (file: string, line: number) =>
      reported.find((entry) => entry.file === `types/${file}` && entry.line === line)?.message;
    expect(message('unknown-argument.ts', 14)).toBe(
      "Workflow 'typo', step 'required': Object literal may only specify known properties, but 'qury' does not exist in type 'ToolArguments<{ query: string; }>'. Did you mean to write 'query'?",
    );
    expect(message('unknown-argument.ts', 20)).toMatch(
      /^Workflow 'typo', step 'unrelated': Object literal may only specify known properties, and 'zipcode'/,
    );
    expect(message('argument-type.ts', 11)).toMatch(/^Workflow 'types', step 'days': Type 'PromptArgSource' is not assignable/);
    // The import of a renamed definition is outside any workflow: TypeScript's message as it is.
    expect(message('renamed-tool.ts', 5)).toBe("Module '\"../shared/weather-tools\"' has no exported member 'currentWeather'.");
    // The explanation of a TS2322 follows it, as under tsc.
    expect(cli.stdout).toContain(
      "  Workflow 'types', step 'days': argument 'days' of tool get_weather takes number | undefined, but promptArg('days') gives a string (a prompt argument always does).",
    );
    expect(cli.stdout).toContain(`Found 0 mcpflow errors and ${types.length} TypeScript errors in the files that declare workflows.`);
  });

  test('--json includes those TypeScript errors, with the workflow and step (here through a patched compiler, which adds mcpflow’s own)', () => {
    const dir = project('cli-types-json', { noEmit: true }, { files: [path.join(FIXTURES, 'types/unknown-argument.ts')] });
    const cli = run('cli', ['validate', '-p', dir, '--json'], dir);
    expect(cli.status).toBe(1);
    const entries = JSON.parse(cli.stdout) as { code: number; line: number; workflow?: string; step?: string }[];
    expect(entries.map(({ code, line, workflow, step }) => ({ code, line, workflow, step }))).toEqual([
      { code: 2561, line: 14, workflow: 'typo', step: 'required' },
      { code: 2561, line: 17, workflow: 'typo', step: 'optional' },
      { code: 2353, line: 20, workflow: 'typo', step: 'unrelated' },
    ]);
  });

  test('the bin npm links in this repo works (it exists before the build, so npm ci links it)', () => {
    const linked = spawnSync(path.join(REPO, 'node_modules/.bin/mcpflow'), ['validate', '-p', 'examples'], { cwd: REPO, encoding: 'utf8' });
    expect(linked.stdout).toMatch(/^Checked \d+ workflows in \d+ files: no mcpflow errors\.$/m);
    expect(linked.status).toBe(0);
  });

  test('works on a project whose own compiler is unpatched: it brings its own TypeScript', () => {
    // A tsconfig without the plugin: plain tsc says nothing, the CLI still finds the errors.
    const dir = project('cli-unpatched', { noEmit: true, plugins: [] }, { files: [path.join(FIXTURES, 'invalid/unknown-binding.ts')] });
    expect(run('tsc', ['-p', dir], dir).status).toBe(0);
    const cli = run('cli', ['validate', '-p', dir], dir);
    expect(cli.status).toBe(1);
    expect(cli.stdout).toContain('error TS91001');
    // And it says why tsc did not: the build does not run the transformer.
    expect(cli.stdout).toMatch(
      /^Note: mcpflow's checks are not part of this project's build: tsconfig\.json does not list the transformer/m,
    );
  });
});

describe('language-service plugin', () => {
  function languageService(files: string[], options: ts.CompilerOptions): ts.LanguageService {
    const host: ts.LanguageServiceHost = {
      getScriptFileNames: () => files,
      getScriptVersion: () => '1',
      getScriptSnapshot: (fileName) =>
        fs.existsSync(fileName) ? ts.ScriptSnapshot.fromString(fs.readFileSync(fileName, 'utf8')) : undefined,
      getCurrentDirectory: () => REPO,
      getCompilationSettings: () => options,
      getDefaultLibFileName: (settings) => ts.getDefaultLibFilePath(settings),
      fileExists: ts.sys.fileExists,
      readFile: ts.sys.readFile,
      readDirectory: ts.sys.readDirectory,
      directoryExists: ts.sys.directoryExists,
      getDirectories: ts.sys.getDirectories,
    };
    const service = ts.createLanguageService(host);
    const plugin = init({ typescript: ts });
    return plugin.create({
      languageService: service,
      languageServiceHost: host,
      project: {} as never,
      serverHost: {} as never,
      config: {},
    } as ts.server.PluginCreateInfo);
  }
  const base = JSON.parse(fs.readFileSync(path.join(REPO, 'tsconfig.base.json'), 'utf8')).compilerOptions;
  const options = ts.convertCompilerOptionsFromJson({ ...base, composite: false, noEmit: true, noUnusedLocals: false }, REPO).options;
  const files = fs
    .readdirSync(path.join(FIXTURES, 'invalid'))
    .filter((file) => file.endsWith('.ts'))
    .map((file) => path.join(FIXTURES, 'invalid', file));
  const ours = (service: ts.LanguageService) =>
    files.flatMap((file) =>
      service
        .getSemanticDiagnostics(file)
        // The notice that the build does not run the checks is tested on its own, below.
        .filter((diagnostic) => diagnostic.code >= 91000 && diagnostic.code < 92000 && diagnostic.code !== CHECKS_OFF_IN_BUILD)
        .map((diagnostic) => {
          const position = diagnostic.file!.getLineAndCharacterOfPosition(diagnostic.start!);
          return { file: path.relative(FIXTURES, file), line: position.line + 1, column: position.character + 1, code: diagnostic.code };
        }),
    );

  test('shows the same diagnostics as tsc while typing', () => {
    expect(ours(languageService(files, options)).map(key).sort()).toEqual(invalid.map(key).sort());
  });

  describe('a project whose build does not run the transformer', () => {
    const file = path.join(FIXTURES, 'valid/every-source.ts');
    const workflows = (fs.readFileSync(file, 'utf8').match(/^@Workflow\(/gm) ?? []).length;
    const notices = (service: ts.LanguageService) =>
      service.getSemanticDiagnostics(file).filter((diagnostic) => diagnostic.code === CHECKS_OFF_IN_BUILD);

    test('gets a warning on each @Workflow: the build would not report a broken workflow, and how to fix that', () => {
      const shown = notices(languageService([file], options));
      expect(shown).toHaveLength(workflows);
      for (const notice of shown) {
        expect(notice.category).toBe(ts.DiagnosticCategory.Warning);
        expect(notice.file?.text.slice(notice.start!, notice.start! + 'Workflow'.length)).toBe('Workflow');
        expect(ts.flattenDiagnosticMessageText(notice.messageText, '\n')).toMatch(
          /^Workflow '.+': mcpflow's checks are not part of this project's build: tsconfig\.json does not list the transformer .* Fix: add \{ "transform": "@mcpflow\/transformer", "transformProgram": true \}/,
        );
      }
    });

    test('gets none when the build runs it (the transformer listed, the TypeScript the project builds with patched)', () => {
      expect(notices(languageService([file], { ...options, plugins: [PLUGIN] as never }))).toEqual([]);
    });
  });

  test('shows TypeScript’s errors as the patched tsc does: TS91031 alone, a TS2322 on a definition argument explained', () => {
    const standard = path.join(FIXTURES, 'standard-decorators/get-hint.ts');
    const off = languageService([standard], { ...options, experimentalDecorators: false, emitDecoratorMetadata: false });
    const codes = off.getSemanticDiagnostics(standard).map((diagnostic) => diagnostic.code);
    expect(codes.filter((code) => code !== CHECKS_OFF_IN_BUILD)).toEqual([91031]);
    const typed = path.join(FIXTURES, 'types/argument-type.ts');
    const explained = languageService([typed], options)
      .getSemanticDiagnostics(typed)
      .filter((diagnostic) => diagnostic.code === 2322)
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n').split('\n')[1]);
    expect(explained).toEqual([
      expect.stringMatching(
        /^ {2}Workflow 'types', step 'days': argument 'days' of tool get_weather takes number \| undefined, but promptArg/,
      ),
      expect.stringMatching(
        /^ {2}Workflow 'types', step 'constants': argument 'city' of tool get_weather takes string, but constant\(42\)/,
      ),
      expect.stringMatching(/^ {2}Workflow 'types', step 'constants': argument 'units' of tool get_weather/),
    ]);
  });

  test('shows none twice when the compiler is patched with the program transformer as well', () => {
    expect(
      ours(languageService(files, { ...options, plugins: [PLUGIN] as never }))
        .map(key)
        .sort(),
    ).toEqual(invalid.map(key).sort());
  });
});
