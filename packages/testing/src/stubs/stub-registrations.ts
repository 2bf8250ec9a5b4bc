import { z } from 'zod';
import { uriTemplateVariableNames } from '@mcpflow/core/model';
import type { ResourceStub, ToolCall, ToolStub } from '../run-options';
import { stubResourceResult } from './resource-result';
import { stubToolResult } from './tool-result';

/** What the stubbing needs of a line's `WorkflowServer`: the registration methods every registration goes through (`use()`'s included). */
export interface RegisteringServer {
  // `any[]`: each SDK line's overloads of these methods, seen through one signature.
  registerTool(...args: any[]): unknown;
  registerResource(...args: any[]): unknown;
}

/** A line's `ResourceTemplate` class, as both lines construct it. */
export type ResourceTemplateClass = new (template: string, callbacks: { list: undefined }) => object;

/** The stubs of a run, by tool name and by URI template. */
export interface Stubs {
  readonly tools: Readonly<Record<string, ToolStub>>;
  readonly resources: Readonly<Record<string, ResourceStub>>;
}

type Handler = (...args: unknown[]) => unknown;

/**
 * Makes a server register stubs in place of handlers: a tool or resource registered under a
 * stubbed name or URI template (a `defineTool`/`defineResource` definition that `use()` registers,
 * keeping its schemas) gets the stub as its handler, and every tool call is recorded in `calls`.
 * Call it before `use()`; `registerRemaining()` after, for the stubs nothing registered (named by
 * string in the workflow), each with an input schema that takes any object.
 *
 * @example
 * ```ts
 * const stubbing = stubRegistrations(server, { tools: { get_weather: () => ({ temp: 21 }) }, resources: {} }, calls, ResourceTemplate);
 * server.use(Forecast);
 * stubbing.registerRemaining();
 * ```
 */
export function stubRegistrations(
  server: RegisteringServer,
  stubs: Stubs,
  calls: ToolCall[],
  ResourceTemplate: ResourceTemplateClass,
): { registerRemaining(): void } {
  const registerTool = server.registerTool.bind(server);
  const registerResource = server.registerResource.bind(server);
  const tools = new Set<string>();
  const templates = new Set<string>();

  /** A tool's handler: its stub if it has one, else the handler registered; either way each call is recorded. */
  const toolHandler = (tool: string, registered?: Handler): Handler => {
    const stub = own(stubs.tools, tool);
    const handler: Handler = stub ? async (input) => stubToolResult(await stub(input)) : registered!;
    return (input, ...rest) => {
      calls.push({ tool, arguments: input as Record<string, unknown> });
      return handler(input, ...rest);
    };
  };
  /** A resource's stub as the handler of a template (`uri, variables, …`) or of a fixed URI (`uri, …`). */
  const resourceHandler = (stub: ResourceStub, template: boolean): Handler =>
    template
      ? async (uri, variables) => stubResourceResult(await stub(variables as Record<string, string | string[]>, href(uri)), href(uri))
      : async (uri) => stubResourceResult(await stub({}, href(uri)), href(uri));

  server.registerTool = (...args: unknown[]) => {
    const name = args[0] as string;
    tools.add(name);
    // Without an input schema a tool's handler gets the request context alone: nothing to stub or record.
    if ((args[1] as { inputSchema?: unknown } | undefined)?.inputSchema !== undefined)
      args[args.length - 1] = toolHandler(name, args[args.length - 1] as Handler);
    return registerTool(...args);
  };
  server.registerResource = (...args: unknown[]) => {
    const uriOrTemplate = args[1] as string | { uriTemplate: { toString(): string } };
    const template = typeof uriOrTemplate === 'string' ? uriOrTemplate : uriOrTemplate.uriTemplate.toString();
    templates.add(template);
    const stub = own(stubs.resources, template);
    if (stub) args[args.length - 1] = resourceHandler(stub, typeof uriOrTemplate !== 'string');
    return registerResource(...args);
  };

  return {
    registerRemaining() {
      for (const name of Object.keys(stubs.tools))
        if (!tools.has(name)) registerTool(name, { description: `Stub of ${name}`, inputSchema: z.looseObject({}) }, toolHandler(name));
      for (const [template, stub] of Object.entries(stubs.resources)) {
        if (templates.has(template)) continue;
        const variables = uriTemplateVariableNames(template).length > 0;
        registerResource(
          template,
          variables ? new ResourceTemplate(template, { list: undefined }) : template,
          {},
          resourceHandler(stub, variables),
        );
      }
    },
  };
}

function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

function href(uri: unknown): string {
  return uri instanceof URL ? uri.href : String(uri);
}
