/** Serving SDK 1.x servers: stdio, and Streamable HTTP with sessions, safe by default. */
export { serveHttp } from './serve-http';
export { serveStdio, type StdioServing } from './serve-stdio';
export type { McpServerFactory } from './server-factory';
export type { HttpServing, HttpServingOptions } from '../../serving';
export { UnguardedBindingError, InvalidServingOptionError } from '../../serving';
