import type {
  RegisteredPrompt,
  RegisteredResource,
  RegisteredResourceTemplate,
  RegisteredTool,
} from '@modelcontextprotocol/sdk/server/mcp.js';
import { ServerRegistry } from '../shared/server-registry';

/** The registry of a 1.x WorkflowServer: the SDK's own handles. */
export type V1Registry = ServerRegistry<RegisteredTool, RegisteredPrompt, RegisteredResource, RegisteredResourceTemplate>;
