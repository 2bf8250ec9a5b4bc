/**
 * What `npm pack` ships: a README, the LICENSE, `engines`, source maps whose sources are in the
 * tarball too, and of `dist` only what the package's entry points (`main`, `exports`, `bin`) can
 * reach — no declaration maps, tests or build bookkeeping.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PACKAGES, packPackages } from './packed-packages';

jest.setTimeout(120_000);

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpflow-tarballs-'));
let tarballs: Record<string, string>;

beforeAll(() => {
  tarballs = packPackages(work);
});

afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

function unpack(name: string): string {
  const dir = path.join(work, name.replace('/', '+'));
  fs.mkdirSync(dir, { recursive: true });
  execFileSync('tar', ['-xzf', tarballs[name], '-C', dir]);
  return path.join(dir, 'package');
}

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((file) => fs.statSync(path.join(dir, file)).isFile());
}

describe.each(PACKAGES)('%s', (name) => {
  test('carries a README and the LICENSE', () => {
    const dir = unpack(name);
    expect(fs.readFileSync(path.join(dir, 'README.md'), 'utf8')).toContain(name);
    expect(fs.readFileSync(path.join(dir, 'LICENSE'), 'utf8')).toContain('MIT License');
  });

  test('every source map points at sources inside the tarball', () => {
    const dir = unpack(name);
    const maps = filesUnder(dir).filter((file) => file.endsWith('.map'));
    expect(maps.length).toBeGreaterThan(0);
    const missing = maps.flatMap((map) => {
      const { sources } = JSON.parse(fs.readFileSync(path.join(dir, map), 'utf8')) as { sources: string[] };
      return sources.map((source) => path.join(path.dirname(map), source)).filter((source) => !fs.existsSync(path.join(dir, source)));
    });
    expect(missing).toEqual([]);
  });

  test('ships no tests and no build bookkeeping', () => {
    const files = filesUnder(unpack(name));
    expect(files.filter((file) => /\.test\.ts$|tsbuildinfo$|(^|\/)test\//.test(file))).toEqual([]);
  });

  test('declares the node it runs on: engines node >=20', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(unpack(name), 'package.json'), 'utf8')) as { engines?: Record<string, string> };
    expect(manifest.engines).toEqual({ node: '>=20' });
  });

  test('of dist, ships only the builds its entry points use, without declaration maps', () => {
    const dir = unpack(name);
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { main: string; exports: unknown };
    // The build folders the entry points name: dist/cjs and dist/esm for the dual packages, dist for the transformer.
    const targets = [manifest.main, ...[...JSON.stringify(manifest.exports).matchAll(/"\.\/(dist\/[^"]+)"/g)].map((match) => match[1])];
    const builds = new Set(targets.map((target) => (/^dist\/(cjs|esm)\//.test(target) ? target.split('/').slice(0, 2).join('/') : 'dist')));
    const dist = filesUnder(dir).filter((file) => file.startsWith('dist/'));
    expect(dist.filter((file) => ![...builds].some((build) => file.startsWith(`${build}/`)))).toEqual([]);
    expect(dist.filter((file) => file.endsWith('.d.ts.map'))).toEqual([]);
  });
});

// docs/projects.md#typescript-7: a `typescript` peer, plain or optional, makes npm (11.x) refuse every
// `npm install` of a TypeScript 7 project with ERESOLVE, so the transformer brings TypeScript 6 as its own
// dependency (the compiler `mcpflow validate` runs) and declares no peer on it.
test('@mcpflow/transformer brings its own TypeScript 6 and declares no typescript peer, so a TypeScript 7 project installs', () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(unpack('@mcpflow/transformer'), 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    peerDependencies?: Record<string, string>;
  };
  expect(manifest.dependencies.typescript).toMatch(/^[~^]?6\.0\./);
  expect(Object.keys(manifest.peerDependencies ?? {})).not.toContain('typescript');
});
