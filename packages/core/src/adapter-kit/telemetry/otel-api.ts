import type * as OtelApiModule from '@opentelemetry/api';

/** `@opentelemetry/api` as loaded. */
export type OtelApi = typeof OtelApiModule;

let loaded: OtelApi | null | undefined;
let loading: Promise<OtelApi | null> | undefined;

/**
 * `@opentelemetry/api` when it is installed (an optional peer of `@mcpflow/core`), else `null`;
 * the promise of it while the first load is under way. Loaded on first need with `import()`, which
 * the CommonJS build compiles to a `require` and the ES-module build keeps, so both builds find
 * the package the application installed — and share its registered tracer provider, which the API
 * keeps in a process-wide global.
 *
 * @example
 * ```ts
 * const api = otelApi();
 * if (api && !isPromiseLike(api)) api.trace.getTracer('@mcpflow/core');
 * ```
 */
export function otelApi(): OtelApi | null | Promise<OtelApi | null> {
  if (loaded !== undefined) return loaded;
  return (loading ??= import('@opentelemetry/api').then(
    (api) => (loaded = api),
    (error: unknown) => {
      const code = (error as { code?: unknown }).code;
      // Not installed is the normal case of an optional peer; anything else is worth a word.
      if (code !== 'MODULE_NOT_FOUND' && code !== 'ERR_MODULE_NOT_FOUND')
        console.error('mcpflow: @opentelemetry/api is installed but could not be loaded; runs are not traced:', error);
      return (loaded = null);
    },
  ));
}
