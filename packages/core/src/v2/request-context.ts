import type { ServerContext } from '@modelcontextprotocol/server';

/** The `ctx` of a 2.x server request handler: `ctx.mcpReq` (signal, `_meta`, notify), `ctx.http`, the session. */
export type RequestContext = ServerContext;
