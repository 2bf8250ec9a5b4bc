import { MissingServingPackageError } from './errors/missing-serving-package-error';

/**
 * Loads an optional SDK package when a serving helper first needs it, so that importing an
 * adapter does not require it (a stdio-only 2.x user need not install `@modelcontextprotocol/node`).
 *
 * @example
 * const node = await loadServingPackage('serveHttp', () => import('@modelcontextprotocol/node'), '@modelcontextprotocol/node');
 */
export async function loadServingPackage<T>(helper: string, load: () => Promise<T>, packageName: string): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if ((error as { code?: string }).code === 'MODULE_NOT_FOUND' && String(error).includes(packageName)) {
      throw new MissingServingPackageError(packageName, helper, error);
    }
    throw error;
  }
}
