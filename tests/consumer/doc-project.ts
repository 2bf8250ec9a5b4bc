/**
 * The projects the README and the guides describe, built from their code blocks (see
 * `tests/docs/doc-blocks.ts`): set up from the packed tarballs, then each block used as its comment
 * says — files compiled, failing examples refused with their code, scripts run, servers queried by a
 * real client of their SDK line, shell commands run.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioClientTransportV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpClientTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpClientTransportV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioClientTransportV2 } from '@modelcontextprotocol/client/stdio';
import { commandLines, projectBlocks, projectFiles, where, type DocBlock } from '../docs/doc-blocks';
import { installProject, runIn, type Ran } from './consumer-project';

/** A block that writes a file, with its use narrowed. */
export type FileBlock = DocBlock & { use: Extract<DocBlock['use'], { kind: 'file' | 'append' | 'merge' }> };

/** Writes the project's files from its blocks into `dir` and installs it from the tarballs. */
export function installDocProject(project: string, dir: string, tarballs: Record<string, string>): Ran {
  return installProject(dir, projectFiles(project), tarballs);
}

/** The compiled path of a source file: `src/try.ts` → `dist/try.js`. */
export function compiledPath(source: string): string {
  return source.replace(/^src\//, 'dist/').replace(/\.ts$/, '.js');
}

/** The project's `file` blocks that carry a flag (`run`, `serve`) or that must fail to compile. */
export function flaggedFiles(project: string): { run: FileBlock[]; serve: FileBlock[]; fails: FileBlock[] } {
  const files = projectBlocks(project).filter((block): block is FileBlock => block.use.kind === 'file');
  return {
    run: files.filter((block) => block.use.run === 'run'),
    serve: files.filter((block) => block.use.run === 'serve'),
    fails: files.filter((block) => block.use.fails !== undefined),
  };
}

/** Lines of tsc output that are errors. */
export function tscErrors(output: string): string[] {
  return output.split('\n').filter((line) => /error TS\d+/.test(line));
}

/**
 * Compiles one failing example on its own, with the project's settings and the checks on: the
 * errors tsc prints for it (the rest of the project compiles, so any error is the example's).
 */
export function compileFailing(dir: string, block: FileBlock): string[] {
  const config = path.join(dir, `tsconfig.failing.json`);
  fs.writeFileSync(
    config,
    JSON.stringify({ extends: './tsconfig.json', compilerOptions: { noEmit: true, rootDir: '.' }, include: ['src', block.use.path] }),
  );
  try {
    return tscErrors(runIn(dir, 'npx', ['tspc', '-p', config]).output);
  } finally {
    fs.rmSync(config);
  }
}

/** Every `shell` block of a project, each non-comment line run in the project's folder. */
export function runShellBlocks(project: string, dir: string): { block: DocBlock; command: string; ran: Ran }[] {
  return projectBlocks(project)
    .filter((block) => block.use.kind === 'shell')
    .flatMap((block) => commandLines(block).map((command) => ({ block, command, ran: runIn(dir, 'sh', ['-c', command]) })));
}

/** The packages an `install` block names, as `dependencies` (plain) and `devDependencies` (`-D`). */
export function installedPackages(block: DocBlock): { dependencies: string[]; devDependencies: string[] } {
  const named = { dependencies: [] as string[], devDependencies: [] as string[] };
  for (const line of block.code.split('\n').filter((text) => text.startsWith('npm install'))) {
    const words = line.split(/\s+/).slice(2);
    const dev = words.includes('-D') || words.includes('--save-dev');
    const names = words.filter((word) => !word.startsWith('-')).map((word) => word.replace(/(.)@[^@/]*$/, '$1'));
    named[dev ? 'devDependencies' : 'dependencies'].push(...names);
  }
  return { dependencies: named.dependencies.sort(), devDependencies: named.devDependencies.sort() };
}

/** The packages a module imports by bare name (`@scope/name/sub.js` → `@scope/name`), node's own excepted. */
export function importedPackages(source: string): string[] {
  const specifiers = [...source.matchAll(/^import\s+(?:[^'"]*?\s+from\s+)?'([^']+)'/gm)].map((match) => match[1]);
  const bare = specifiers.filter((specifier) => !specifier.startsWith('.') && !specifier.startsWith('node:'));
  return [
    ...new Set(
      bare.map((specifier) =>
        specifier
          .split('/')
          .slice(0, specifier.startsWith('@') ? 2 : 1)
          .join('/'),
      ),
    ),
  ];
}

/** What a client of either SDK line is asked here. */
interface AnyClient {
  listPrompts(): Promise<{ prompts: { name: string; arguments?: { name: string; required?: boolean }[] }[] }>;
  getPrompt(params: { name: string; arguments: Record<string, string> }): Promise<{ _meta?: Record<string, unknown> }>;
  close(): Promise<void>;
}

/** How a server block is queried. */
export interface Query {
  readonly transport: 'stdio' | 'http';
  /** The prompts to get; by default every prompt listed, with `alice` for each required argument. */
  readonly requests?: readonly { name: string; arguments: Record<string, string> }[];
  /** A 2.x client only: pin this protocol version, and accept every question with this content. */
  readonly pin?: string;
  readonly answer?: Record<string, unknown>;
}

/** What a served block answered: the prompts it lists, and each request with the status its run ended in. */
export interface Served {
  readonly listed: string[];
  readonly runs: { name: string; status: unknown }[];
  readonly stderr: string;
}

function clientOf(v1: boolean, query: Query): AnyClient & { connect(transport: never): Promise<void> } {
  const info = { name: 'doc-test', version: '1.0.0' };
  if (v1) return new ClientV1(info) as never;
  const client = new ClientV2(info, {
    ...(query.pin ? { versionNegotiation: { mode: { pin: query.pin as '2026-07-28' } } } : {}),
    ...(query.answer ? { capabilities: { elicitation: { form: {} } } } : {}),
  });
  const content = query.answer;
  if (content) client.setRequestHandler('elicitation/create', async () => ({ action: 'accept' as const, content: content as never }));
  return client as never;
}

/**
 * Starts a `serve` block's compiled file as a user would and queries it with a real client of the
 * SDK line it imports: over stdio, or over HTTP with `PORT` set (to 0 here; the URL is read from
 * what the server prints).
 */
export async function queryServer(dir: string, block: FileBlock, query: Query): Promise<Served> {
  const file = compiledPath(block.use.path);
  const v1 = block.code.includes("'@mcpflow/core/v1'");
  const client = clientOf(v1, query);
  let stderr = '';
  let stop = async (): Promise<void> => {};
  if (query.transport === 'stdio') {
    const params = { command: process.execPath, args: [file], cwd: dir, stderr: 'pipe' as const };
    const stdio = v1 ? new StdioClientTransportV1(params) : new StdioClientTransportV2(params);
    stdio.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await client.connect(stdio as never);
  } else {
    const child = spawn(process.execPath, [file], { cwd: dir, env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
    stop = async () => {
      if (child.exitCode === null) child.kill();
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
    };
    const url = await new Promise<URL>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${where(block)}: printed no http:// URL within 20 s. stderr: ${stderr}`)), 20_000);
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const found = /https?:\/\/\S+/.exec(stderr);
        if (found) {
          clearTimeout(timer);
          resolve(new URL(found[0]));
        }
      });
      child.once('exit', (code) => reject(new Error(`${where(block)}: exited (${code}) before serving. stderr: ${stderr}`)));
    });
    await client.connect((v1 ? new HttpClientTransportV1(url) : new HttpClientTransportV2(url)) as never);
  }
  try {
    const { prompts } = await client.listPrompts();
    const requests =
      query.requests ??
      prompts.map((prompt) => ({
        name: prompt.name,
        arguments: Object.fromEntries(
          prompt.arguments?.filter((argument) => argument.required).map((argument) => [argument.name, 'alice']) ?? [],
        ),
      }));
    const runs: Served['runs'] = [];
    for (const request of requests) {
      const result = await client.getPrompt(request);
      runs.push({ name: request.name, status: (result._meta?.['mcpflow/execution'] as { status?: unknown } | undefined)?.status });
    }
    return { listed: prompts.map((prompt) => prompt.name), runs, stderr };
  } finally {
    await client.close();
    await stop();
  }
}

/**
 * A module run in the project that imports each compiled file given and hands every class it
 * exports to a fresh `WorkflowServer`'s `use()`, which checks it as the server would (classes that
 * are not workflows are passed over). Prints how many workflows it checked.
 */
const USE_EVERY_WORKFLOW = `import { pathToFileURL } from 'node:url';
import { WorkflowServer } from '@mcpflow/core/v2';
import { ErrorCodes } from '@mcpflow/core';

let checked = 0;
for (const file of process.argv.slice(2)) {
  const exported = await import(pathToFileURL(file).href);
  for (const [name, value] of Object.entries(exported)) {
    if (typeof value !== 'function' || !/^class\\b/.test(Function.prototype.toString.call(value))) continue;
    try {
      new WorkflowServer({ name: 'doc-check', version: '1.0.0' }).use(value);
      checked++;
    } catch (error) {
      if (error?.code === ErrorCodes.NotAWorkflow) continue;
      console.error(\`\${file}: \${name}: \${error?.message ?? error}\`);
      process.exitCode = 1;
    }
  }
}
console.log(\`use() accepted \${checked} workflows\`);
`;

/** Runs {@link USE_EVERY_WORKFLOW} over the compiled files of a project that neither serve nor run. */
export function useEveryWorkflow(project: string, dir: string): Ran {
  const { run, serve, fails } = flaggedFiles(project);
  const skipped = new Set([...run, ...serve, ...fails].map((block) => block.use.path));
  const modules = Object.keys(projectFiles(project))
    .filter((file) => file.startsWith('src/') && file.endsWith('.ts') && !file.endsWith('.test.ts') && !skipped.has(file))
    .map(compiledPath);
  fs.writeFileSync(path.join(dir, 'use-every-workflow.mjs'), USE_EVERY_WORKFLOW);
  return runIn(dir, process.execPath, ['use-every-workflow.mjs', ...modules]);
}
