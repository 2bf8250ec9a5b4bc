import * as fs from 'node:fs';
import * as path from 'node:path';
import { runIn } from './consumer-project';

const REPO = path.resolve(__dirname, '../..');

/**
 * Whether a node binary that cannot be had fails the test (CI) instead of skipping it: on CI
 * (`CI=true`, or `MCPFLOW_REQUIRE_OTHER_NODE=1` as `.ci/run` sets it).
 */
const OTHER_NODE_REQUIRED = process.env.CI === 'true' || process.env.MCPFLOW_REQUIRE_OTHER_NODE === '1';

/**
 * The folder holding a node binary of another major version, for running a project's `npm test`
 * on it (`PATH` first): the npm registry's `node` package brings that binary, installed once into
 * `node_modules/.cache/mcpflow-node-<major>` of the repo and reused. `undefined` when it cannot be
 * had (no registry) and the run is not required; on CI that is an error naming what failed.
 *
 * @example
 * ```ts
 * const bin = otherNode(22); // …/node_modules/.cache/mcpflow-node-22/node_modules/node/bin
 * runIn(dir, 'npm', ['test'], { PATH: `${bin}:${process.env.PATH}` });
 * ```
 */
export function otherNode(major: number): string | undefined {
  const cache = path.join(REPO, 'node_modules/.cache', `mcpflow-node-${major}`);
  const bin = path.join(cache, 'node_modules/node/bin');
  const works = () => runIn(cache, path.join(bin, 'node'), ['--version']).stdout.startsWith(`v${major}.`);
  if (fs.existsSync(path.join(bin, 'node')) && works()) return bin;
  fs.mkdirSync(cache, { recursive: true });
  const installed = runIn(cache, 'npm', [
    'install',
    '--prefix',
    cache,
    '--no-save',
    '--no-audit',
    '--no-fund',
    '--prefer-offline',
    `node@${major}`,
  ]);
  if (installed.status === 0 && fs.existsSync(path.join(bin, 'node')) && works()) return bin;
  const problem = `node ${major} could not be installed from the registry (npm install node@${major}):\n${installed.output}`;
  if (OTHER_NODE_REQUIRED) throw new Error(problem);
  console.warn(`${problem}\nSkipping the node ${major} runs (CI=true makes this an error).`);
  return undefined;
}

/** The environment that runs a command, and npm and every script it starts, on the node in `bin`. */
export function onNode(bin: string): Record<string, string> {
  return { PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` };
}
