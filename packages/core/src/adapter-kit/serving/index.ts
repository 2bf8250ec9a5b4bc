/**
 * Serving policy both lines share, SDK-free: the options and their safe defaults, the check of one
 * server before anything is accepted, how failures are reported, the `Host`/`Origin` guards, the
 * bounded sessions, and the listening `node:http` server.
 */
export {
  type HttpServingOptions,
  type ResolvedHttpServingOptions,
  resolveHttpServingOptions,
  DEFAULT_MAX_REQUEST_BODY_SIZE,
} from './http-serving-options';
export type { HttpServing } from './http-serving';
export type { StdioServing, StdioServingOptions } from './stdio-serving';
export { listenHttp, type HttpEndpoint } from './listen';
export { serveHttpEndpoint, type HttpHandling, type HttpServingLine } from './serve-http-endpoint';
export { SessionEndpoint, type SessionExchange, type SessionTransport, type SessionTransportOptions } from './session-endpoint';
export { SessionPool, type ClosableSession, type SessionLimits } from './session-pool';
export { firstServer, firstServerOrExit } from './first-server';
export { describeServingFailure, reportServingFailure } from './failure-report';
export { checkHostHeader, checkOriginHeader, type HeaderCheck } from './header-guard';
export { writeJsonRpcError, ServingErrorCodes } from './json-rpc-error-response';
export { SessionMessages } from './session-messages';
export { LOOPBACK_HOSTNAMES, isLoopbackHost } from './loopback';
export { UnguardedBindingError } from './errors/unguarded-binding-error';
export { InvalidServingOptionError } from './errors/invalid-serving-option-error';
export { MissingServingPackageError } from './errors/missing-serving-package-error';
export { loadServingPackage } from './load-serving-package';
