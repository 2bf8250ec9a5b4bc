import { MissingSdkError } from '../errors/missing-sdk-error';

/** The packages each SDK line's client and server come from. */
const LINE_PACKAGES: Readonly<Record<1 | 2, readonly string[]>> = {
  1: ['@modelcontextprotocol/sdk'],
  2: ['@modelcontextprotocol/server', '@modelcontextprotocol/client'],
};

/**
 * Loads the module that runs a workflow on an SDK line, when a run first needs it: each line is an
 * optional peer dependency, so a project with one line installed never loads the other. A line
 * that is not installed is a `MissingSdkError` naming the package to install.
 *
 * @example
 * ```ts
 * const { runOnSdk2 } = await loadLine(2, () => import('./sdk-2'));
 * ```
 */
export async function loadLine<T>(sdk: 1 | 2, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const code = (error as { code?: unknown } | undefined)?.code;
    const text = error instanceof Error ? error.message : String(error);
    const missing =
      code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND' ? LINE_PACKAGES[sdk].find((name) => text.includes(name)) : undefined;
    if (missing) throw new MissingSdkError(missing, sdk, error);
    throw error;
  }
}
