import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Output } from './output';

/**
 * `mcpflow patch`: lets `tsc` run mcpflow's checks by patching the project's TypeScript with
 * ts-patch — when that TypeScript is 6.x. TypeScript 7 (the native compiler) has no plugin API and
 * cannot be patched: then it says so, points at `mcpflow validate`, and still exits 0, so a
 * `"prepare": "mcpflow patch"` script never breaks `npm install`.
 *
 * ```json
 * "scripts": { "prepare": "mcpflow patch" }
 * ```
 */
export function patchTypeScript(projectDir: string, stdout: Output, stderr: Output): number {
  let version: string;
  try {
    const manifest = require.resolve('typescript/package.json', { paths: [projectDir] });
    version = (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }).version;
  } catch {
    stderr.write(`mcpflow patch: no TypeScript is installed in ${projectDir}; nothing to patch. Install typescript@6 and run it again.\n`);
    return 0;
  }
  const major = Number(version.split('.')[0]);
  if (major >= 7) {
    stdout.write(
      `mcpflow patch: TypeScript ${version} cannot be patched (TypeScript 7 has no compiler plugins), so tsc will not report mcpflow errors.\n` +
        `  Type-level checks still work. Run \`npx mcpflow validate\` (it brings TypeScript 6) in your build or CI for the rest,\n` +
        `  or npm install -D typescript@~6.0 (the version @mcpflow/transformer supports) to get mcpflow's errors from tspc, your editor and ts-jest.\n`,
    );
    return 0;
  }
  // ts-patch is a dependency of this package; it patches the TypeScript found from `dir`.
  const { install } = require('ts-patch') as typeof import('ts-patch');
  const patched = install({ dir: path.resolve(projectDir), silent: true });
  if (!patched) {
    stderr.write(`mcpflow patch: ts-patch could not patch TypeScript ${version} in ${projectDir}; see its message above.\n`);
    return 1;
  }
  stdout.write(`mcpflow patch: TypeScript ${version} patched; tsc now reports mcpflow errors.\n`);
  return 0;
}
