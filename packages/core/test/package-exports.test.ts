import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Every entry point of @mcpflow/core is dual: an ESM and a CommonJS build, each with its own types,
 * so a project's own SDK import and mcpflow's agree in either mode. An entry point whose source
 * folder exists must resolve to built files under both conditions (npm test builds first).
 */
const core = path.resolve(__dirname, '..');
const manifest = JSON.parse(fs.readFileSync(path.join(core, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
const entryPoints = {
  '.': 'index.ts',
  './v1': 'v1/index.ts',
  './v2': 'v2/index.ts',
  './model': 'model/index.ts',
  './rules': 'rules/index.ts',
};

test.each(Object.entries(entryPoints))('%s has an import and a require condition, each with types', (subpath) => {
  expect(manifest.exports[subpath]).toEqual({
    import: { types: expect.stringMatching(/^\.\/dist\/esm\/.*\.d\.ts$/), default: expect.stringMatching(/^\.\/dist\/esm\/.*\.js$/) },
    require: { types: expect.stringMatching(/^\.\/dist\/cjs\/.*\.d\.ts$/), default: expect.stringMatching(/^\.\/dist\/cjs\/.*\.js$/) },
  });
});

const built = Object.entries(entryPoints).filter(([, source]) => fs.existsSync(path.join(core, 'src', source)));

test.each(built)('%s points at files the build wrote', (subpath) => {
  const conditions = manifest.exports[subpath] as Record<string, Record<string, string>>;
  const targets = Object.values(conditions).flatMap((condition) => Object.values(condition));
  expect(targets.filter((target) => !fs.existsSync(path.join(core, target)))).toEqual([]);
});

test('the ESM build is marked as ESM for node and for TypeScript', () => {
  expect(JSON.parse(fs.readFileSync(path.join(core, 'dist/esm/package.json'), 'utf8'))).toEqual({ type: 'module' });
});
