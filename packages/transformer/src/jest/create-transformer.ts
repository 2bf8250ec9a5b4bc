import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { TsJestTransformer, TsJestTransformerOptions } from 'ts-jest';

type TsJestOptions = TsJestTransformerOptions;

/**
 * Turns the user's ts-jest options into ones that always type-check and run mcpflow's checks:
 * ts-jest only type-checks when `isolatedModules` is off (TypeScript 6's `tsc --init` turns it on),
 * and only a patched compiler runs the `@mcpflow/transformer` plugin of the tsconfig.
 *
 * ```js
 * // jest.config.js
 * module.exports = { preset: '@mcpflow/transformer/jest' };
 * ```
 */
export function typeCheckedOptions(options: TsJestOptions = {}, rootDir = process.cwd()): TsJestOptions {
  return {
    ...options,
    compiler: require.resolve('ts-patch/compiler'),
    tsconfig: withoutIsolatedModules(options.tsconfig, rootDir),
    diagnostics: withoutHybridModuleWarning(options.diagnostics),
  };
}

/** ts-jest warns (TS151002) that nodenext wants `isolatedModules` — which is what turns its type checks off. */
function withoutHybridModuleWarning(diagnostics: TsJestOptions['diagnostics']): TsJestOptions['diagnostics'] {
  if (diagnostics === false) return diagnostics;
  const given = typeof diagnostics === 'object' ? diagnostics : {};
  const codes = given.ignoreCodes === undefined ? [] : Array.isArray(given.ignoreCodes) ? given.ignoreCodes : [given.ignoreCodes];
  return { ...given, ignoreCodes: [...codes, HYBRID_MODULE_WARNING] };
}

const HYBRID_MODULE_WARNING = 151002;

/**
 * What the preset changes in the project's compiler options for ts-jest: `isolatedModules` off, so
 * ts-jest type-checks; `noEmitOnError` off, as ts-jest reports the errors itself and fails the test,
 * while with it on ts-jest's language service emits nothing and jest stops with "Unable to process".
 */
const TS_JEST_COMPILER_OPTIONS = { isolatedModules: false, noEmitOnError: false };

function withoutIsolatedModules(tsconfig: TsJestOptions['tsconfig'], rootDir: string): TsJestOptions['tsconfig'] {
  // An object is merged by ts-jest over the tsconfig.json it finds in rootDir.
  if (tsconfig === undefined || tsconfig === true || tsconfig === false) return { ...TS_JEST_COMPILER_OPTIONS };
  if (typeof tsconfig === 'object') return { ...tsconfig, ...TS_JEST_COMPILER_OPTIONS };
  // A path: a config that extends it (paths in it stay relative to it) and turns isolatedModules off.
  // It lives in node_modules/.cache beside that tsconfig, so ts-patch finds the plugins from there.
  const configPath = path.resolve(rootDir, tsconfig.replace('<rootDir>', rootDir));
  const dir = path.join(path.dirname(configPath), 'node_modules', '.cache', 'mcpflow-jest');
  const file = path.join(dir, `${createHash('sha256').update(configPath).digest('hex').slice(0, 16)}.json`);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(file, JSON.stringify({ extends: configPath, compilerOptions: TS_JEST_COMPILER_OPTIONS }));
  return file;
}

/** The jest transformer behind `@mcpflow/transformer/jest`: ts-jest, type-checked, with mcpflow's checks. */
export function createTransformer(options?: TsJestOptions): TsJestTransformer {
  // ts-jest is the user's (a peer dependency), loaded only when jest asks for this transformer.
  const { TsJestTransformer: Transformer } = require('ts-jest') as typeof import('ts-jest');
  return new Transformer(typeCheckedOptions(options));
}
