// Finishes the ESM builds of the dual packages: tsc writes `./model` where node's ESM loader needs
// `./model/index.js`, so tsc-alias adds the full paths, and a package.json marks the folder as ESM
// (for node and for TypeScript's nodenext resolution of the .d.ts files in it).
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { replaceTscAliasPaths } from 'tsc-alias';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

for (const name of ['core', 'decorators', 'testing', 'client']) {
  const packageDir = join(root, 'packages', name);
  await replaceTscAliasPaths({ configFile: join(packageDir, 'tsconfig.esm.json'), resolveFullPaths: true });
  writeFileSync(join(packageDir, 'dist/esm/package.json'), `${JSON.stringify({ type: 'module' }, null, 2)}\n`);
}
