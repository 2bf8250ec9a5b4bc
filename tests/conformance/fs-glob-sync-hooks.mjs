/** Module hooks: an ESM import of `fs` (outside the shim itself) resolves to fs-with-glob-sync.mjs. */
const shim = new URL('./fs-with-glob-sync.mjs', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  if ((specifier === 'fs' || specifier === 'node:fs') && context.parentURL !== shim) return { url: shim, shortCircuit: true };
  return nextResolve(specifier, context);
}
