import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';

/** The `extra` of a server request handler: signal, auth, session, notifications. */
export type RequestExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;
