import { MissingServingPackageError } from './errors/missing-serving-package-error';

/** The codes node's loaders give a module that cannot be found: CommonJS `require`, then ESM `import`. */
const NOT_FOUND = new Set(['MODULE_NOT_FOUND', 'ERR_MODULE_NOT_FOUND']);

/**
 * Loads an optional SDK package when a serving helper first needs it, so that importing an
 * adapter does not require it (a stdio-only 2.x user need not install `@modelcontextprotocol/node`).
 * The package missing — in a CommonJS project (`Cannot find module '…'`) or an ES-module one
 * (`Cannot find package '…'`) — is a `MissingServingPackageError` naming the install; any other
 * failure (a file missing inside an installed package, say) passes through unchanged.
 *
 * @example
 * const node = await loadServingPackage('serveHttp', () => import('@modelcontextprotocol/node'), '@modelcontextprotocol/node');
 */
export async function loadServingPackage<T>(helper: string, load: () => Promise<T>, packageName: string): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const code = (error as { code?: unknown } | undefined)?.code;
    if (typeof code === 'string' && NOT_FOUND.has(code) && String(error).includes(`'${packageName}'`)) {
      throw new MissingServingPackageError(packageName, helper, error);
    }
    throw error;
  }
}
