/** Serving SDK 2.x servers: stdio, and HTTP for 2026-07-28 (stateless) and 2025 clients (sessions), safe by default. */
export { serveHttp, type HttpServingOptions, type HttpServingV2 } from './serve-http';
export { serveStdio, type StdioServing } from './serve-stdio';
export type { HttpServing } from '../../serving';
export { UnguardedBindingError, InvalidServingOptionError, MissingServingPackageError } from '../../serving';
