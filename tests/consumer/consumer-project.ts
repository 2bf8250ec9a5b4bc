import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { stripVTControlCharacters } from 'node:util';

/** What a command printed (stdout and stderr together, and stdout alone) and its exit status. */
export interface Ran {
  status: number | null;
  output: string;
  stdout: string;
}

/** Runs a command in a project folder, as a user would in a terminal. */
export function runIn(dir: string, command: string, args: string[], env: Record<string, string> = {}): Ran {
  const result = spawnSync(command, args, { cwd: dir, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 300_000 });
  const output = `${result.stdout}${result.stderr}${result.error ? String(result.error) : ''}`;
  // Without the terminal colours some tools add even when not writing to a terminal.
  return { status: result.status, output: stripVTControlCharacters(output), stdout: stripVTControlCharacters(result.stdout ?? '') };
}

/**
 * A fresh project outside the repo (no node_modules above it): writes `files`, points the
 * package.json's `@mcpflow/*` dependencies at the packed tarballs (they are not on a registry),
 * and the `@mcpflow/*` packages those depend on (`@mcpflow/testing` → `@mcpflow/client`) too,
 * through npm `overrides`, as the registry would serve them; then runs `npm install`, which runs
 * the project's `prepare` script as it would for a user.
 */
export function installProject(dir: string, files: Record<string, string>, tarballs: Record<string, string>): Ran {
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  const manifestPath = path.join(dir, 'package.json');
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as Record<string, Record<string, string> | undefined>;
  const direct = new Set<string>();
  for (const field of ['dependencies', 'devDependencies']) {
    const dependencies = manifest[field] ?? {};
    for (const name of Object.keys(dependencies)) {
      direct.add(name);
      if (tarballs[name]) dependencies[name] = `file:${tarballs[name]}`;
    }
  }
  // npm refuses an override of a direct dependency whose spec differs: those are pointed at above.
  const transitive = Object.entries(tarballs).filter(([name]) => !direct.has(name));
  if (transitive.length > 0) manifest.overrides = Object.fromEntries(transitive.map(([name, file]) => [name, `file:${file}`]));
  fs.writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
  return runIn(dir, 'npm', ['install', '--prefer-offline', '--no-audit', '--no-fund']);
}

/** A workflow whose wiring is broken: it reads `analysis`, bound only as `analysis_result` (TS91001 on `'analysis'`). */
export const BROKEN_WORKFLOW = `import { Workflow, Step, Bind, fromStep } from '@mcpflow/decorators';

@Workflow({ name: 'review' })
export class Review {
  @Step({ tool: 'analyze' }) @Bind('analysis_result') analyze!: unknown;
  @Step({ tool: 'review', args: { analysis: fromStep('analysis') } }) review!: unknown;
}
`;
const brokenLine = BROKEN_WORKFLOW.split('\n')[5];
/** Where TS91001 sits in BROKEN_WORKFLOW, 1-based as tsc prints it. */
export const BROKEN_AT = { line: 6, column: brokenLine.indexOf("'analysis'") + 1 };
