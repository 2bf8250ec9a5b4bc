import * as ts from 'typescript';
import { DEV_USAGE, devCommand } from './dev';
import { GRAPH_USAGE, graphCommand } from './graph';
import { INIT_USAGE, initCommand } from './init';
import { LOCK_USAGE, lockCommand } from './lock';
import type { Output } from './output';
import { ownVersion } from './own-version';
import { patchTypeScript } from './patch-typescript';
import { PREFLIGHT_USAGE, preflightCommand } from './preflight';
import { validateProject } from './validate';

const USAGE = `Usage: mcpflow --version
       mcpflow validate [-p <tsconfig.json>] [--json]
       ${LOCK_USAGE}
       mcpflow patch
       ${PREFLIGHT_USAGE}
       ${INIT_USAGE}
       ${GRAPH_USAGE}
       ${DEV_USAGE}

validate  Checks the mcpflow workflows of a TypeScript project with mcpflow's own TypeScript ${ts.version},
          whatever compiler the project builds with (TypeScript 7 included). Prints diagnostics as
          tsc does (or as JSON with --json) and exits with 1 when there are errors. A solution-style
          tsconfig ("files": [] and references) checks every project it references.
lock      Writes mcpflow.lock.json beside the tsconfig.json: the shape of every step of each workflow, as
          this release serves it. Commit it, at each release: from then on tsc (through the transformer)
          and validate report 91050 for a change that would refuse runs paused on that version, unless
          the old class is kept in @Workflow({ previous }). --check runs validate's checks, the lock's among them.
patch     Patches the project's TypeScript 6 with ts-patch so tsc reports mcpflow errors; on
          TypeScript 7, which cannot be patched, says so and exits 0. Meant for "prepare".
preflight Stops a build that cannot run with mcpflow's words: on TypeScript 7, where tspc crashes
          inside ts-patch, names the fix and exits 1; otherwise prints nothing. Meant for "prebuild"
          and "pretest"; fast (it does not load TypeScript).
init      Writes a new project into an empty folder (default: this one): one workflow, one test, built
          with tspc so the checks cannot be lost; SDK line 2 (default) or 1, ESM (default) or CommonJS.
          Installs nothing: run npm install, npm run build and npm test after it.
graph     Prints each workflow of a file or a project as a Mermaid flowchart of its steps.
dev       Opens the studio (the package @mcpflow/studio): a local page, as a client of your server (a
          command it starts over stdio, or a Streamable HTTP URL), that draws each workflow, runs it
          from a form, answers its questions and shows a timeline. Prints the page's URL (with its
          token) first; listens on 127.0.0.1 and a free port unless --host/--port say otherwise.`;

/**
 * The `mcpflow` command line: returns the exit code (0 clean, 1 errors found, 2 bad usage or
 * config); `dev`, which serves until stopped, resolves with it.
 */
export function runCli(argv: readonly string[], stdout: Output, stderr: Output): number | Promise<number> {
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h' || command === undefined) {
    (command === undefined ? stderr : stdout).write(`${USAGE}\n`);
    return command === undefined ? 2 : 0;
  }
  if ((command === '--version' || command === '-v') && rest.length === 0) {
    stdout.write(`${ownVersion()}\n`);
    return 0;
  }
  if (command === 'patch' && rest.length === 0) return patchTypeScript(process.cwd(), stdout, stderr);
  if (command === 'preflight') return preflightCommand(rest, process.cwd(), stderr);
  if (command === 'init') return initCommand(rest, stdout, stderr);
  if (command === 'graph') return graphCommand(rest, stdout, stderr);
  if (command === 'dev') return devCommand(rest, stdout, stderr);
  if (command === 'lock') return lockCommand(rest, stdout, stderr);
  if (command !== 'validate') {
    stderr.write(`mcpflow: unknown command '${[command, ...rest].join(' ')}'.\n${USAGE}\n`);
    return 2;
  }
  let project = 'tsconfig.json';
  let json = false;
  for (let index = 0; index < rest.length; index += 1) {
    const flag = rest[index];
    if (flag === '--json') json = true;
    else if ((flag === '-p' || flag === '--project') && rest[index + 1]) project = rest[(index += 1)];
    else {
      stderr.write(`mcpflow: unknown option '${flag}'.\n${USAGE}\n`);
      return 2;
    }
  }
  return validateProject({ project, json }, stdout, stderr);
}
