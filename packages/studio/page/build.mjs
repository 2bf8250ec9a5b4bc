// Builds the studio's page into packages/studio/dist/page/{index.html,app.js,app.css}: the sources
// type-checked (DOM), then bundled by esbuild with mermaid inside (no network at run time).
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const page = dirname(fileURLToPath(import.meta.url));
const out = join(page, '..', 'dist', 'page');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

execFileSync(process.execPath, [tsc, '-p', join(page, 'tsconfig.json')], { stdio: 'inherit' });
mkdirSync(out, { recursive: true });
await build({
  entryPoints: [
    { in: join(page, 'src', 'main.ts'), out: 'app' },
    { in: join(page, 'app.css'), out: 'app' },
  ],
  outdir: out,
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: ['chrome120', 'firefox120'],
  minify: true,
  legalComments: 'external',
  logLevel: 'warning',
});
copyFileSync(join(page, 'index.html'), join(out, 'index.html'));
