/**
 * `@mcpflow/studio`: the studio `mcpflow dev` opens (DESIGN §2.15) — an MCP client of your server
 * (SDK 2.x) that serves a local page drawing each workflow, running it from a form, answering its
 * questions and showing a timeline. The page's API is packages/studio/API.md.
 */
export { startStudio, type Studio, type StudioOptions } from './server/start-studio';
export type { StudioTarget } from './server/server-connection';
export type { ServerView, ConnectionState } from './server/api-types';
