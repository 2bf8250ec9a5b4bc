import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as ts from 'typescript';

/** Whether a project's build runs mcpflow's checks, and if not, why and how to make it. */
export type BuildChecks = { readonly runs: true } | { readonly runs: false; readonly reason: string; readonly fix: string };

const TRANSFORMER = '@mcpflow/transformer';
const PLUGIN_ENTRY = `{ "transform": "${TRANSFORMER}", "transformProgram": true }`;

/**
 * Tells whether building the project (its tsconfig's options, its folder) runs mcpflow's checks:
 * the transformer is listed in `compilerOptions.plugins` and the build either compiles with `tspc`
 * (some package.json script runs it) or with a TypeScript that ts-patch has patched; or a script
 * runs `mcpflow validate`. `npm install <package>` puts back an unpatched TypeScript, which is why
 * a `tsc` build can lose the checks without a word.
 *
 * @example
 * ```ts
 * const build = buildRunsChecks(parsed.options, path.dirname(configPath));
 * if (!build.runs) console.log(`Note: ${build.reason}. Fix: ${build.fix}`);
 * ```
 */
export function buildRunsChecks(options: ts.CompilerOptions, projectDir: string): BuildChecks {
  const scripts = packageScripts(projectDir);
  const typescript = installedTypeScript(projectDir);
  const crashes = tspcOnTypeScript7(scripts, typescript);
  if (crashes) return { runs: false, ...crashes };
  // The CLI checks whatever compiler the project has; tspc loads the transformer into an unpatched TypeScript 6.
  if (runsCommand(scripts, 'mcpflow validate')) return { runs: true };
  const listed = ((options.plugins ?? []) as { transform?: unknown }[]).some(
    (plugin) => typeof plugin.transform === 'string' && plugin.transform.startsWith(TRANSFORMER),
  );
  if (!listed) {
    return {
      runs: false,
      reason: 'tsconfig.json does not list the transformer in compilerOptions.plugins',
      fix: `add ${PLUGIN_ENTRY} to compilerOptions.plugins and build with tspc ("build": "tspc" in package.json), or run \`mcpflow validate\` in your build ("build": "mcpflow validate && tsc").`,
    };
  }
  if (typescript && isTypeScript7(typescript)) {
    return {
      runs: false,
      reason: `the project builds with TypeScript ${typescript.version}, which has no compiler plugins`,
      fix: 'npm install -D typescript@~6.0 and build with tspc, or run `mcpflow validate` in your build ("build": "mcpflow validate && tsc").',
    };
  }
  if (runsCommand(scripts, 'tspc') || !typescript || typescript.patched) return { runs: true };
  return {
    runs: false,
    reason: `its TypeScript ${typescript.version} is not patched by ts-patch (\`npm install <package>\` puts back an unpatched one) and no script builds with tspc, so tsc skips the transformer`,
    fix: 'build with tspc, ts-patch\'s compiler, which loads the transformer without patching anything ("build": "tspc" in package.json).',
  };
}

/** Why a build cannot run, and its fix. */
export interface BuildCannotRun {
  readonly reason: string;
  readonly fix: string;
}

/**
 * Why a script of the project cannot run at all: it runs `tspc` — or `jest` with mcpflow's preset,
 * which compiles with ts-patch too — and the TypeScript the project resolves is 7, which has no
 * compiler plugins (ts-patch crashes before any check runs). `script` names the one npm is about
 * to run (`build`, `test`; the scripts it runs with `npm run`/`npm test` are followed once);
 * without it, every script counts. Undefined when it can run. Reads package.json files and never
 * loads TypeScript: `mcpflow preflight` runs it before every build.
 *
 * @example
 * ```ts
 * const crash = tspcCannotRun(process.cwd(), 'build');
 * if (crash) console.error(`${crash.reason}.\nFix: ${crash.fix}`);
 * ```
 */
export function tspcCannotRun(projectDir: string, script?: string): BuildCannotRun | undefined {
  const all = packageScriptRecord(projectDir);
  const typescript = installedTypeScript(projectDir);
  const one = script !== undefined && all[script] !== undefined;
  const named = one
    ? [script, ...[...all[script].matchAll(/\bnpm(?:\s+run(?:-script)?\s+([\w:.-]+)|\s+(test|start))\b/g)].map((m) => m[1] ?? m[2])]
    : Object.keys(all);
  const commands = named.map((name) => all[name]).filter((command): command is string => command !== undefined);
  const jest = runsCommand(commands, 'jest') && usesMcpflowJestPreset(projectDir);
  return tspcOnTypeScript7(commands, typescript, one ? `the ${script} script` : 'a script', jest);
}

function tspcOnTypeScript7(
  scripts: readonly string[],
  typescript: { version: string } | undefined,
  who = 'a script',
  jest = false,
): BuildCannotRun | undefined {
  if (!typescript || !isTypeScript7(typescript)) return undefined;
  const tspc = runsCommand(scripts, 'tspc');
  if (!tspc && !jest) return undefined;
  const runs = tspc ? `${who} builds with tspc` : `${who} runs jest with mcpflow's preset (ts-jest through ts-patch)`;
  return {
    reason:
      `${runs}, but the project's TypeScript is ${typescript.version}: TypeScript 7 has no compiler plugins, and ${tspc ? 'tspc' : 'ts-patch'} crashes ` +
      "inside ts-patch (Cannot read properties of undefined (reading 'LineFeed')) before any check runs",
    fix: 'npm install -D typescript@~6.0 (the version @mcpflow/transformer supports), or build with "mcpflow validate && tsc".',
  };
}

/** Whether the project resolves TypeScript 7 or later (no compiler plugins: tspc and ts-patch cannot run on it). */
function isTypeScript7(typescript: { version: string }): boolean {
  return Number(typescript.version.split('.')[0]) >= 7;
}

/** Whether the project's jest configuration (a jest.config file, or package.json's "jest") names mcpflow's preset. */
function usesMcpflowJestPreset(dir: string): boolean {
  const preset = '@mcpflow/transformer/jest';
  const configs = ['jest.config.js', 'jest.config.cjs', 'jest.config.mjs', 'jest.config.ts', 'jest.config.json', 'package.json'];
  return configs.some((name) => {
    try {
      return fs.readFileSync(path.join(dir, name), 'utf8').includes(preset);
    } catch {
      return false;
    }
  });
}

/** Whether a script runs `command` as a command of its own (`tspc`, `npx tspc -p x`, `… && tspc`). */
function runsCommand(scripts: readonly string[], command: string): boolean {
  const pattern = new RegExp(`(^|[\\s;&|(])${command}(?=$|[\\s;&|)])`);
  return scripts.some((script) => pattern.test(script));
}

/** The scripts of the package.json nearest to `dir` (upwards), or none. */
function packageScripts(dir: string): string[] {
  return Object.values(packageScriptRecord(dir));
}

/** The scripts of the package.json nearest to `dir` (upwards), by name; none when there is none. */
function packageScriptRecord(dir: string): Record<string, string> {
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    const manifest = path.join(current, 'package.json');
    if (fs.existsSync(manifest)) {
      try {
        const scripts = (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { scripts?: Record<string, unknown> }).scripts ?? {};
        return Object.fromEntries(Object.entries(scripts).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
      } catch {
        return {};
      }
    }
    if (path.dirname(current) === current) return {};
  }
}

/** The TypeScript a build in `dir` resolves, its version and whether ts-patch has patched its tsc. */
function installedTypeScript(dir: string): { version: string; patched: boolean } | undefined {
  let manifest: string;
  try {
    manifest = require.resolve('typescript/package.json', { paths: [dir] });
  } catch {
    return undefined;
  }
  const version = (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }).version;
  // TypeScript 6's tsc.js loads _tsc.js, the compiler ts-patch patches; older layouts have it in tsc.js.
  const lib = path.join(path.dirname(manifest), 'lib');
  const compiler = ['_tsc.js', 'tsc.js'].map((name) => path.join(lib, name)).find((file) => fs.existsSync(file));
  return { version, patched: compiler !== undefined && startsWith(compiler, '/// tsp-module:') };
}

function startsWith(file: string, marker: string): boolean {
  const handle = fs.openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(marker.length);
    fs.readSync(handle, buffer, 0, marker.length, 0);
    return buffer.toString('utf8') === marker;
  } finally {
    fs.closeSync(handle);
  }
}
