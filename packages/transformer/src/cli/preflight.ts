import { tspcCannotRun } from '../build/build-runs-checks';
import type { Output } from './output';

export const PREFLIGHT_USAGE = 'mcpflow preflight';

/**
 * `mcpflow preflight`: what npm runs before a project's build and tests (`"prebuild"` and
 * `"pretest"`, as `mcpflow init` and the README write them). When a script builds with `tspc` and
 * the project's TypeScript is 7, which `tspc` cannot run (ts-patch crashes before any check, with a
 * message about `LineFeed`), it says so with the fix and exits 1, so the build stops with mcpflow's
 * words instead of that crash. Otherwise it prints nothing and exits 0: it never fails a build that
 * would run. Reads two package.json files and never loads TypeScript, so it costs a node start-up.
 *
 * ```json
 * "scripts": { "prebuild": "mcpflow preflight", "build": "tspc", "pretest": "mcpflow preflight" }
 * ```
 */
export function preflightCommand(args: readonly string[], projectDir: string, stderr: Output): number {
  if (args.length > 0) {
    stderr.write(`mcpflow preflight: unknown option '${args[0]}'. Usage: ${PREFLIGHT_USAGE}\n`);
    return 2;
  }
  const crash = tspcCannotRun(projectDir);
  if (!crash) return 0;
  stderr.write(`mcpflow preflight: this build cannot run: ${crash.reason}.\n  Fix: ${crash.fix}\n`);
  return 1;
}
