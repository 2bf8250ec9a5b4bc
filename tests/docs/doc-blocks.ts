import * as fs from 'node:fs';
import * as path from 'node:path';

export const REPO = path.resolve(__dirname, '../..');

/**
 * How a code block of the README or a guide is used by the tests. The comment line just above a
 * fence says it, e.g. `<!-- block: file src/workflow.ts in esm cjs -->`:
 *
 * - `file PATH in PROJECT…` — the whole file PATH of each named project;
 * - `append PATH in PROJECT…` — added to the end of PATH (after its `file` block);
 * - `merge PATH in PROJECT…` — a JSON object merged into the JSON file PATH (e.g. a package.json change);
 *   `file` and `append` may end with `; run` (the compiled file is run and must exit 0), `; serve` (it serves
 *   MCP: a real client lists and gets its prompts) or `; fails TS2353` (it must not compile, and
 *   the compiler must say exactly that code);
 * - `shell in PROJECT…` — commands run in each project's folder, each must exit 0;
 * - `output in PROJECT…` — exactly what the last command of the page's `shell` block above it prints
 *   on stdout in each project (a `text` block: program output the page shows);
 * - `install in PROJECT…` — an `npm install` line naming exactly the project's dependencies;
 * - `repo` — this repository's own commands (each an npm script or a built file);
 * - `not compiled: REASON` — shown only, with the reason why it cannot run.
 *
 * Blocks in `text` (program output, diagrams) need no comment; every other block must have one.
 */
export type BlockUse =
  | {
      readonly kind: 'file' | 'append' | 'merge';
      readonly path: string;
      readonly projects: readonly string[];
      readonly run?: 'run' | 'serve';
      readonly fails?: string;
    }
  | { readonly kind: 'shell' | 'install' | 'output'; readonly projects: readonly string[] }
  | { readonly kind: 'repo' }
  | { readonly kind: 'not compiled'; readonly reason: string }
  | { readonly kind: 'text' };

export interface DocBlock {
  /** The page, relative to the repo: `README.md`, `docs/flow.md`. */
  readonly page: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly language: string;
  readonly code: string;
  readonly use: BlockUse;
}

/** Where a block is, for error messages: `docs/flow.md:12`. */
export function where(block: Pick<DocBlock, 'page' | 'line'>): string {
  return `${block.page}:${block.line}`;
}

/** The README first, then every guide in `docs/` (the generated API reference excepted), in name order. */
export function docPages(): string[] {
  const docs = path.join(REPO, 'docs');
  const guides = fs.existsSync(docs)
    ? fs
        .readdirSync(docs)
        .filter((name) => name.endsWith('.md'))
        .sort()
        .map((name) => `docs/${name}`)
    : [];
  return ['README.md', ...guides];
}

const FENCE = /^```(\S*)\s*$/;
const MARK = /^<!--\s*block:\s*(.*?)\s*-->$/;

/** Every fenced code block of a page, with how it is used; throws on a block nobody said how to use. */
function pageBlocks(page: string): DocBlock[] {
  const lines = fs.readFileSync(path.join(REPO, page), 'utf8').split('\n');
  const blocks: DocBlock[] = [];
  for (let at = 0; at < lines.length; at++) {
    const opening = FENCE.exec(lines[at]);
    if (!opening) continue;
    const close = lines.findIndex((text, index) => index > at && text === '```');
    if (close < 0) throw new Error(`${page}:${at + 1}: a code block that is never closed.`);
    const language = opening[1];
    const mark = MARK.exec(lines[at - 1] ?? '');
    const place = { page, line: at + 1 };
    const use = mark ? parseUse(mark[1], place) : language === 'text' ? ({ kind: 'text' } as const) : undefined;
    if (!use)
      throw new Error(
        `${where(place)}: a \`${language || 'plain'}\` block without a <!-- block: … --> comment above it. ` +
          'Say how the tests use it (file, append, shell, install, repo, or not compiled: reason), or make it `text`.',
      );
    blocks.push({ ...place, language, code: lines.slice(at + 1, close).join('\n') + '\n', use });
    at = close;
  }
  return blocks;
}

/** Every block of the README and the guides. */
export function allBlocks(): DocBlock[] {
  return docPages().flatMap(pageBlocks);
}

function parseUse(text: string, place: Pick<DocBlock, 'page' | 'line'>): BlockUse {
  const fail = (problem: string): never => {
    throw new Error(`${where(place)}: <!-- block: ${text} --> ${problem}`);
  };
  if (text === 'repo') return { kind: 'repo' };
  const skipped = /^not compiled:\s*(.+)$/.exec(text);
  if (skipped) return { kind: 'not compiled', reason: skipped[1] };
  const [head, ...flags] = text.split(';').map((part) => part.trim());
  const command = /^(shell|install|output) in ((?:\s*[\w-]+)+)$/.exec(head);
  if (command) {
    if (flags.length) fail('takes no flags.');
    return { kind: command[1] as 'shell' | 'install' | 'output', projects: command[2].trim().split(/\s+/) };
  }
  const file = /^(file|append|merge) (\S+) in ((?:\s*[\w-]+)+)$/.exec(head);
  if (!file)
    return fail(
      'is not one of: file PATH in PROJECT…, append PATH in PROJECT…, merge PATH in PROJECT…, shell in PROJECT…, output in PROJECT…, install in PROJECT…, repo, not compiled: REASON.',
    );
  let run: 'run' | 'serve' | undefined;
  let fails: string | undefined;
  for (const flag of flags) {
    if (flag === 'run' || flag === 'serve') run = flag;
    else if (/^fails TS\d+$/.test(flag)) fails = flag.slice('fails '.length);
    else fail(`has an unknown flag '${flag}' (run, serve, fails TSnnnn).`);
  }
  return {
    kind: file[1] as 'file' | 'append' | 'merge',
    path: file[2],
    projects: file[3].trim().split(/\s+/),
    ...(run ? { run } : {}),
    ...(fails ? { fails } : {}),
  };
}

/**
 * A project's files as the blocks write them: each `file` block, then the `append` and `merge`
 * blocks after it, in page order.
 */
export function projectFiles(project: string, blocks: readonly DocBlock[] = allBlocks()): Record<string, string> {
  const files: Record<string, string> = {};
  for (const block of blocks) {
    const { use } = block;
    if (!('path' in use) || !use.projects.includes(project)) continue;
    if (use.kind === 'file') {
      if (use.path in files)
        throw new Error(`${where(block)}: ${use.path} of project '${project}' is written twice; make this block 'append' or 'merge'.`);
      files[use.path] = block.code;
      continue;
    }
    if (!(use.path in files))
      throw new Error(`${where(block)}: changes ${use.path} of project '${project}' before any 'file' block writes it.`);
    files[use.path] =
      use.kind === 'append'
        ? `${files[use.path]}\n${block.code}`
        : `${JSON.stringify(mergeJson(JSON.parse(files[use.path]), JSON.parse(block.code)), null, 2)}\n`;
  }
  return files;
}

/** `change` laid over `base`: objects merge key by key, anything else replaces. */
function mergeJson(base: unknown, change: unknown): unknown {
  const isObject = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value);
  if (!isObject(base) || !isObject(change)) return change;
  const merged = { ...base };
  for (const [key, value] of Object.entries(change)) merged[key] = mergeJson(base[key], value);
  return merged;
}

/**
 * Each `output` block of a project with the command whose stdout it shows: the last command line of
 * the nearest `shell` block above it on the same page, for the same project.
 */
export function outputBlocks(project: string, blocks: readonly DocBlock[] = allBlocks()): { block: DocBlock; command: string }[] {
  return projectBlocks(project, blocks)
    .filter((block) => block.use.kind === 'output')
    .map((block) => {
      const shell = projectBlocks(project, blocks)
        .filter((above) => above.use.kind === 'shell' && above.page === block.page && above.line < block.line)
        .at(-1);
      const command = shell ? commandLines(shell).at(-1) : undefined;
      if (!command) throw new Error(`${where(block)}: an output block with no shell block above it for project '${project}'.`);
      return { block, command };
    });
}

/** The commands of a `shell` block: its lines without comments, blank lines dropped. */
export function commandLines(block: DocBlock): string[] {
  return block.code
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line && !line.startsWith('#'));
}

/** The blocks of a project with a given flag or kind, e.g. its `shell` blocks or the files it runs. */
export function projectBlocks(project: string, blocks: readonly DocBlock[] = allBlocks()): DocBlock[] {
  return blocks.filter((block) => 'projects' in block.use && block.use.projects.includes(project));
}
