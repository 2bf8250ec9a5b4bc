import { tspcCannotRun } from '../build/build-runs-checks';
import type { Output } from './output';

export const PREFLIGHT_USAGE = 'mcpflow preflight';

/**
 * `mcpflow preflight`: what npm runs before a project's build and tests (`"prebuild"` and
 * `"pretest"`, as `mcpflow init` and the README write them). When the script npm is about to run
 * (or, outside npm, any script) builds with `tspc` — or runs jest with mcpflow's preset — and the
 * project's TypeScript is 7, which ts-patch cannot run (it crashes before any check, with a message
 * about `LineFeed`), it says so with the fix and exits 1, so the build stops with mcpflow's words
 * instead of that crash. Otherwise it prints nothing and exits 0: it never fails a build that
 * would run. Reads package.json files and never loads TypeScript: it costs a node start-up.
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
  // Run by npm as "prebuild" or "pretest": only the script about to run counts (and what it runs with npm).
  const event = process.env.npm_lifecycle_event;
  const script = event?.startsWith('pre') ? event.slice('pre'.length) : undefined;
  const crash = tspcCannotRun(projectDir, script);
  if (!crash) return 0;
  const what = script === undefined ? 'this build' : `npm ${script === 'test' || script === 'start' ? script : `run ${script}`}`;
  stderr.write(`mcpflow preflight: ${what} cannot run: ${crash.reason}.\n  Fix: ${crash.fix}\n`);
  return 1;
}
