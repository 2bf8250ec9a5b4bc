import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import { LOCK_FILE, lockText, type WorkflowModel } from '@mcpflow/core/model';
import { lockedProjectName } from '../lock/gone-workflows';
import { programWorkflows } from '../program-diagnostics';
import type { Output } from './output';
import { readProjects, validateProject } from './validate';

/** How to call `mcpflow lock`. */
export const LOCK_USAGE = 'mcpflow lock [-p <tsconfig.json>] [--check]';

/** `mcpflow lock …` from its command-line arguments. Returns the exit code. */
export function lockCommand(argv: readonly string[], stdout: Output, stderr: Output): number {
  let project = 'tsconfig.json';
  let check = false;
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index];
    if (arg === '--check') check = true;
    else if ((arg === '-p' || arg === '--project') && argv[index + 1] !== undefined) project = argv[(index += 1)];
    else {
      stderr.write(`mcpflow lock: unexpected argument '${arg}'.\nUsage: ${LOCK_USAGE}\n`);
      return 2;
    }
  }
  // The check is validate's: the lock check (91050) is one of its rules.
  return check ? validateProject({ project, json: false }, stdout, stderr) : writeLock(project, stdout, stderr);
}

/**
 * `mcpflow lock`: writes `mcpflow.lock.json` beside the project's tsconfig.json, with the shape of
 * every step of each workflow — its latest class's and those of each class it keeps in `previous`,
 * whose paused runs can still be out there — and the tsconfig.json that declares it (so a workflow
 * deleted or renamed later is reported), read from the source by the analyzer the compiler checks with. Returns the exit code: 0 written,
 * 1 a workflow that cannot be read or two of one name, 2 bad config.
 *
 * ```sh
 * npx mcpflow lock
 * # Locked 2 workflows in mcpflow.lock.json: commit it.
 * ```
 */
function writeLock(project: string, stdout: Output, stderr: Output): number {
  const read = readProjects(project, stderr);
  if (!read) return 2;
  const { configPath, projects } = read;
  const lockPath = path.join(path.dirname(configPath), LOCK_FILE);
  const latest = new Map<string, { model: WorkflowModel; file: string; project?: string }>();
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const parsed of projects) {
    const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, projectReferences: parsed.projectReferences });
    const workflows = programWorkflows(ts, program);
    const isPrevious = workflows.context.versions?.().isPrevious ?? (() => false);
    const project = lockedProjectName(lockPath, parsed.options.configFilePath);
    for (const file of program.getSourceFiles()) {
      if (seen.has(file.fileName)) continue;
      seen.add(file.fileName);
      for (const workflow of workflows.analysisOf(file).workflows) {
        if (isPrevious(workflow.declaration)) continue;
        const where = path.relative(process.cwd(), file.fileName);
        const name = workflow.model.name;
        if (!workflow.complete)
          problems.push(`workflow '${name}' (${where}) cannot be read whole: run mcpflow validate and fix what it reports.`);
        const other = latest.get(name);
        if (other)
          problems.push(
            `two workflows are named '${name}' (${other.file} and ${where}): keep the older in the other's previous, or rename one.`,
          );
        latest.set(name, { model: workflow.model, file: where, ...(project === undefined ? {} : { project }) });
      }
    }
  }
  if (problems.length) {
    stderr.write(`mcpflow lock: nothing written.\n${problems.map((problem) => `  ${problem}\n`).join('')}`);
    return 1;
  }
  const text = lockText([...latest.values()]);
  const shown = path.relative(process.cwd(), lockPath) || LOCK_FILE;
  const count = `${latest.size} workflow${latest.size === 1 ? '' : 's'}`;
  if (fs.existsSync(lockPath) && fs.readFileSync(lockPath, 'utf8') === text) {
    stdout.write(`${shown} is up to date (${count}).\n`);
    return 0;
  }
  fs.writeFileSync(lockPath, text);
  stdout.write(
    `Locked ${count} in ${shown}: commit it. From now on the compiler and mcpflow validate report (91050) a change that would refuse runs paused on this version.\n`,
  );
  return 0;
}
