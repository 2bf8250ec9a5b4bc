import type { RegisteredPrompt, RegisteredResource, RegisteredResourceTemplate, RegisteredTool } from '@modelcontextprotocol/server';
import { ServerRegistry } from '../shared/server-registry';

/** The registry of a 2.x WorkflowServer: the SDK's own handles. */
export type V2Registry = ServerRegistry<RegisteredTool, RegisteredPrompt, RegisteredResource, RegisteredResourceTemplate>;
