import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';

/** Where `@mcpflow/core`'s CommonJS build is, as the bench (a CommonJS program) loads it. */
const CORE_BUILD = path.resolve(path.dirname(require.resolve('@mcpflow/core/v1')), '..');

/** Swaps a function a module of `@mcpflow/core` exports for another, and back. */
export interface ReplacedExport {
  off(): void;
  on(): void;
}

/**
 * Replaces `name`, exported by `module` of `@mcpflow/core`'s CommonJS build (a path under
 * `dist/cjs`), for as long as it is off. The build's modules call each other's exports through the
 * exporting module's object (`(0, module_1.name)(…)`), so the replacement is what every caller
 * gets; the shipped code has no switch, and its default path no check of one. Throws when the
 * module or the export is gone (the engine moved it): the ablation table must then be updated.
 *
 * @example
 * const walk = replacedExport('engine/results/find-unrepresentable.js', 'findUnrepresentable', () => () => undefined);
 * walk.off(); await run(); walk.on();
 */
export function replacedExport(module: string, name: string, replacement: (original: Function) => Function): ReplacedExport {
  const file = path.join(CORE_BUILD, module);
  if (!fs.existsSync(file))
    throw new Error(`ablation: ${file} does not exist (moved?); update bench/src/ablation/safeguards.ts to where the safeguard now lives.`);
  // The very module object the build's own requires return: node caches it by this file name.
  const exports = createRequire(__filename)(file) as Record<string, unknown>;
  const original = exports[name];
  if (typeof original !== 'function')
    throw new Error(`ablation: ${module} exports no function '${name}' (renamed?); update bench/src/ablation/safeguards.ts.`);
  const swapped = replacement(original);
  return {
    off: () => (exports[name] = swapped),
    on: () => (exports[name] = original),
  };
}

/**
 * Like `replacedExport`, for methods of a class that `module` exports: swaps `methods` on its
 * prototype while off (instances made before go through them too), and puts the originals back.
 *
 * @example
 * const caps = replacedMethods('adapter-kit/run/run-admission.js', 'RunAdmission', { enter: () => undefined });
 */
export function replacedMethods(module: string, name: string, methods: Readonly<Record<string, Function>>): ReplacedExport {
  // Checks the module and the export exist (it throws naming the table to update), and keeps the class as it is.
  replacedExport(module, name, (original) => original);
  const exported = createRequire(__filename)(path.join(CORE_BUILD, module)) as Record<string, { prototype: Record<string, unknown> }>;
  const prototype = exported[name]!.prototype;
  const originals = Object.fromEntries(
    Object.keys(methods).map((method) => {
      if (typeof prototype[method] !== 'function')
        throw new Error(`ablation: ${name} of ${module} has no method '${method}' (renamed?); update bench/src/ablation/safeguards.ts.`);
      return [method, prototype[method]];
    }),
  );
  return {
    off: () => Object.assign(prototype, methods),
    on: () => Object.assign(prototype, originals),
  };
}
