import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Output } from './output';
import { ownVersion } from './own-version';
import { projectFiles, type ProjectChoices } from './project-template';

/** How to call `mcpflow init`. */
export const INIT_USAGE = 'mcpflow init [dir] [--sdk 1|2] [--module esm|cjs]';

/** The options of `mcpflow init`. */
export interface InitOptions {
  /** The folder to write into: new, or empty (a `.git` folder aside). */
  readonly dir: string;
  readonly sdk: 1 | 2;
  readonly module: 'esm' | 'cjs';
}

/** `mcpflow init …` from its command-line arguments: parses them, then writes the project. Returns the exit code. */
export function initCommand(argv: readonly string[], stdout: Output, stderr: Output): number {
  let dir: string | undefined;
  let sdk: string | undefined;
  let module: string | undefined;
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index];
    const value = argv[index + 1];
    if (arg === '--sdk' && value !== undefined && sdk === undefined) [sdk, index] = [value, index + 1];
    else if (arg === '--module' && value !== undefined && module === undefined) [module, index] = [value, index + 1];
    else if (!arg.startsWith('-') && dir === undefined) dir = arg;
    else return usageError(`unexpected argument '${arg}'`, stderr);
  }
  if (sdk !== undefined && sdk !== '1' && sdk !== '2') return usageError(`--sdk is 1 or 2, not '${sdk}'`, stderr);
  if (module !== undefined && module !== 'esm' && module !== 'cjs') return usageError(`--module is esm or cjs, not '${module}'`, stderr);
  return initProject({ dir: dir ?? '.', sdk: sdk === '1' ? 1 : 2, module: module === 'cjs' ? 'cjs' : 'esm' }, stdout, stderr);
}

/**
 * `mcpflow init`: writes a new project into an empty folder — a workflow, a server, a
 * `runWorkflow` test and the configuration that keeps mcpflow's checks on — and says what to run
 * next. It asks nothing and installs nothing. Returns the exit code (0 written, 1 refused).
 *
 * ```sh
 * npx -p @mcpflow/transformer mcpflow init my-server --sdk 2 --module esm
 * cd my-server && npm install && npm test
 * ```
 */
function initProject(options: InitOptions, stdout: Output, stderr: Output): number {
  const target = path.resolve(options.dir);
  const present = fs.existsSync(target) ? fs.readdirSync(target).filter((entry) => entry !== '.git') : [];
  if (present.length > 0) {
    const shown = present.length > 5 ? [...present.slice(0, 5), '…'] : present;
    stderr.write(
      `mcpflow init: ${options.dir} is not empty (it holds ${shown.join(', ')}), and init never overwrites files.\n` +
        `  Give it a new folder instead: ${initAgain(freeFolder(options.dir), options)}\n`,
    );
    return 1;
  }
  const choices: ProjectChoices = { name: packageName(target), sdk: options.sdk, module: options.module, mcpflow: `^${ownVersion()}` };
  const files = projectFiles(choices);
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(target, file)), { recursive: true });
    fs.writeFileSync(path.join(target, file), text);
  }
  const relative = path.relative(process.cwd(), target);
  const moduleName = options.module === 'esm' ? 'ES modules' : 'CommonJS';
  // The folder is named once: the package's name when it is the folder's own, else both.
  const where = relative === '' || relative === choices.name ? '' : `, into ${relative}`;
  stdout.write(
    `Wrote ${choices.name}, an MCP server on SDK ${options.sdk}.x (${moduleName})${where}:\n` +
      Object.keys(files)
        .map((file) => `  ${file}\n`)
        .join('') +
      `Next:\n${relative ? `  cd ${relative}\n` : ''}  npm install\n  npm run build\n  npm test\n`,
  );
  return 0;
}

/** The same command for another folder, with the SDK line and module format asked for. */
function initAgain(dir: string, { sdk, module }: InitOptions): string {
  return `mcpflow init ${/\s/.test(dir) ? JSON.stringify(dir) : dir} --sdk ${sdk} --module ${module}`;
}

/**
 * A folder that does not exist yet, for a refused `dir`: beside it, `<name>-2`, `<name>-3`, … —
 * or, when `dir` is the current folder, `my-server` (then `my-server-2`, …) inside it.
 */
function freeFolder(dir: string): string {
  const refused = path.resolve(dir);
  const here = refused === process.cwd();
  const parent = here ? refused : path.dirname(refused);
  const base = here ? 'my-server' : path.basename(refused);
  let name = here ? base : `${base}-2`;
  for (let index = 2; fs.existsSync(path.join(parent, name)); index += 1) name = `${base}-${index + (here ? 0 : 1)}`;
  return path.relative(process.cwd(), path.join(parent, name));
}

function usageError(problem: string, stderr: Output): number {
  stderr.write(`mcpflow init: ${problem}.\nUsage: ${INIT_USAGE}\n`);
  return 2;
}

/** An npm package name from a folder's name: lowercase, with what npm refuses turned into hyphens. */
function packageName(dir: string): string {
  const name = path
    .basename(dir)
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, '-')
    .replace(/^[._-]+|-+$/g, '');
  return name || 'mcp-server';
}
