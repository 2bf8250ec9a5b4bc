/**
 * Serving policy both lines share, SDK-free: the options and their safe defaults, the check of one
 * server before anything is accepted, how failures are reported, the `Host`/`Origin` guards, the
 * bounded sessions, and the listening `node:http` server.
 */
export { type HttpServingOptions, resolveHttpServingOptions, DEFAULT_MAX_REQUEST_BODY_SIZE } from './http-serving-options';
export type { HttpServing } from './http-serving';
export type { SessionEventStore } from './session-event-store';
export { memoryEventStore, type MemoryEventStoreOptions } from './memory-event-store';
export type { StdioServing, StdioServingOptions } from './stdio-serving';
export { serveHttpEndpoint } from './serve-http-endpoint';
export { SessionPool } from './session-pool';
export { firstServerOrExit } from './first-server';
export { reportServingFailure } from './failure-report';
export { withoutAnsweredRejections } from './answered-rejections';
export { checkHostHeader, checkOriginHeader } from './header-guard';
export { nodeSessionRequest, webSessionRequest } from './session-requests';
export { rememberRemoteAddress, remoteAddressOf } from './remote-address';
export { isLoopbackHost } from './loopback';
export { UnguardedBindingError } from './errors/unguarded-binding-error';
export { InvalidServingOptionError } from './errors/invalid-serving-option-error';
export { MissingServingPackageError } from './errors/missing-serving-package-error';
export { loadServingPackage } from './load-serving-package';
