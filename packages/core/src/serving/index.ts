/**
 * What both adapters' serving helpers share, SDK-free: the options and their safe defaults, the
 * `Host`/`Origin` checks, the bounded session pool and the listening `node:http` server.
 */
export { type HttpServingOptions, type ResolvedHttpServingOptions, resolveHttpServingOptions } from './http-serving-options';
export type { HttpServing } from './http-serving';
export { listenHttp, type HttpEndpoint } from './listen';
export { SessionPool, type ClosableSession, type SessionLimits } from './session-pool';
export { checkHostHeader, checkOriginHeader, type HeaderCheck } from './header-guard';
export { writeJsonRpcError, ServingErrorCodes } from './json-rpc-error-response';
export { SessionMessages } from './session-messages';
export { isLoopbackHost } from './loopback';
export { UnguardedBindingError } from './errors/unguarded-binding-error';
export { InvalidServingOptionError } from './errors/invalid-serving-option-error';
export { MissingServingPackageError } from './errors/missing-serving-package-error';
export { loadServingPackage } from './load-serving-package';
