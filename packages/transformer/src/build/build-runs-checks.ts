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
  const seven = typescript !== undefined && Number(typescript.version.split('.')[0]) >= 7;
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
  if (seven) {
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

/**
 * Why the project's build cannot run at all, when a package.json script builds with `tspc` and the
 * TypeScript it resolves is 7 (which has no compiler plugins: ts-patch crashes before any check
 * runs), with the fix; undefined otherwise. Reads two package.json files, never loads TypeScript:
 * `mcpflow preflight` runs it before every build.
 *
 * @example
 * ```ts
 * const crash = tspcCannotRun(process.cwd());
 * if (crash) console.error(`${crash.reason}.\nFix: ${crash.fix}`);
 * ```
 */
export function tspcCannotRun(projectDir: string): { readonly reason: string; readonly fix: string } | undefined {
  return tspcOnTypeScript7(packageScripts(projectDir), installedTypeScript(projectDir));
}

function tspcOnTypeScript7(
  scripts: readonly string[],
  typescript: { version: string } | undefined,
): { readonly reason: string; readonly fix: string } | undefined {
  if (typescript === undefined || !(Number(typescript.version.split('.')[0]) >= 7) || !runsCommand(scripts, 'tspc')) return undefined;
  return {
    reason:
      `a script builds with tspc, but the project's TypeScript is ${typescript.version}: TypeScript 7 has no compiler plugins, and tspc crashes ` +
      "inside ts-patch (Cannot read properties of undefined (reading 'LineFeed')) before any check runs",
    fix: 'npm install -D typescript@~6.0 (the version @mcpflow/transformer supports), or build with "mcpflow validate && tsc".',
  };
}

/** Whether a script runs `command` as a command of its own (`tspc`, `npx tspc -p x`, `… && tspc`). */
function runsCommand(scripts: readonly string[], command: string): boolean {
  const pattern = new RegExp(`(^|[\\s;&|(])${command}(?=$|[\\s;&|)])`);
  return scripts.some((script) => pattern.test(script));
}

/** The scripts of the package.json nearest to `dir` (upwards), or none. */
function packageScripts(dir: string): string[] {
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    const manifest = path.join(current, 'package.json');
    if (fs.existsSync(manifest)) {
      try {
        const scripts = (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { scripts?: Record<string, unknown> }).scripts ?? {};
        return Object.values(scripts).filter((script): script is string => typeof script === 'string');
      } catch {
        return [];
      }
    }
    if (path.dirname(current) === current) return [];
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
