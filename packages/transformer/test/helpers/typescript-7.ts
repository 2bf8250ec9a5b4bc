import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** The TypeScript 7 release the type-level checks are verified with. */
export const TYPESCRIPT_7 = '7.0.2';

/**
 * The `tsc` of TypeScript 7, installed once into a temporary folder (never into the repo's
 * node_modules: the transformer needs TypeScript 6 there). Returns the path of its `tsc` script.
 */
export function typescript7(): string {
  const dir = path.join(os.tmpdir(), `mcpflow-typescript-${TYPESCRIPT_7}`);
  const tsc = path.join(dir, 'node_modules/typescript/bin/tsc');
  const manifest = path.join(dir, 'node_modules/typescript/package.json');
  const installed =
    fs.existsSync(manifest) && (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }).version === TYPESCRIPT_7;
  if (!installed) {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ private: true }));
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const result = spawnSync(npm, ['install', `typescript@${TYPESCRIPT_7}`, '--no-audit', '--no-fund', '--no-package-lock'], {
      cwd: dir,
      encoding: 'utf8',
    });
    if (result.status !== 0) throw new Error(`npm install typescript@${TYPESCRIPT_7} failed:\n${result.stdout}\n${result.stderr}`);
  }
  return tsc;
}
