import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

export const REPO = path.resolve(__dirname, '../../../..');
export const FIXTURES = path.resolve(__dirname, '../fixtures');
/** The repo's own tsc, patched by `ts-patch install -s` in `npm ci`'s prepare step. */
export const TSC = path.join(REPO, 'node_modules/typescript/lib/tsc.js');
/** The `mcpflow` bin, through the launcher npm links. */
export const CLI = path.join(REPO, 'packages/transformer/bin/mcpflow.js');
const WORK = path.resolve(__dirname, '../.work');

export const PLUGIN = { transform: '@mcpflow/transformer', transformProgram: true };

/** A diagnostic as tsc prints it. */
export interface Reported {
  file: string;
  line: number;
  column: number;
  code: number;
  message: string;
}

/** A scratch project inside the repo (so node_modules resolve), with a tsconfig extending the repo's base. */
export function project(name: string, compilerOptions: Record<string, unknown>, extra: Record<string, unknown>): string {
  const dir = path.join(WORK, name);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const config = {
    extends: path.join(REPO, 'tsconfig.base.json'),
    compilerOptions: {
      composite: false,
      declaration: false,
      declarationMap: false,
      noUnusedLocals: false,
      types: ['node'],
      plugins: [PLUGIN],
      ...compilerOptions,
    },
    ...extra,
  };
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(config, null, 2));
  return dir;
}

export function run(script: 'tsc' | 'cli', args: string[], cwd: string): { status: number | null; stdout: string } {
  const result = spawnSync(process.execPath, [script === 'tsc' ? TSC : CLI, ...args], { cwd, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout + result.stderr };
}

/** Parses tsc's `file(line,col): error TScode: message` lines; file names relative to the fixtures folder. */
export function parseReported(output: string, cwd: string): Reported[] {
  const reported: Reported[] = [];
  for (const line of output.split('\n')) {
    const match = /^(.+?)\((\d+),(\d+)\): error TS(\d+): (.*)$/.exec(line.trim());
    if (!match) continue;
    reported.push({
      file: path.relative(FIXTURES, path.resolve(cwd, match[1])),
      line: Number(match[2]),
      column: Number(match[3]),
      code: Number(match[4]),
      message: match[5],
    });
  }
  return reported;
}

/** The `// @expect <code> <line>:<col> "<fragment>"` lines of every fixture in a folder. */
export function expectations(folder: string): { file: string; code: number; line: number; column: number; fragment: string }[] {
  return fs
    .readdirSync(path.join(FIXTURES, folder))
    .filter((file) => file.endsWith('.ts'))
    .flatMap((file) =>
      fs
        .readFileSync(path.join(FIXTURES, folder, file), 'utf8')
        .split('\n')
        .map((line) => /^\/\/ @expect (\d+) (\d+):(\d+) (".*")$/.exec(line))
        .filter((match): match is RegExpExecArray => match !== null)
        .map((match) => ({
          file: `${folder}/${file}`,
          code: Number(match[1]),
          line: Number(match[2]),
          column: Number(match[3]),
          fragment: JSON.parse(match[4]) as string,
        })),
    );
}
