import type { AdapterLine } from '../adapter-line';
import { madeOfShape } from '../tools/tool-inputs';
import type { PromptHandle, ResourceHandle, TemplateHandle, ToolHandle } from './handles';
import { decodingCallback, type ServerRegistry } from './server-registry';

type Method = (this: unknown, ...args: unknown[]) => unknown;

/** What a registration wrapper needs of the server it runs on. */
export interface RegistrationTracker {
  readonly registry: ServerRegistry;
  /** Called after a prompt is registered, in any form. */
  promptRegistered(): void;
}

/**
 * Wraps every registration method of a line's `McpServer` (`registerTool` and the older `tool()`,
 * …) on `prototype`, so the handles the SDK returns are kept in the server's registry to run tools
 * and resources in process, and template callbacks receive decoded variables.
 *
 * @example
 * ```ts
 * interceptRegistrations(WorkflowServer.prototype, McpServer.prototype, line.registrations, (server) => server.catalog);
 * ```
 */
export function interceptRegistrations(
  prototype: object,
  base: object,
  methods: AdapterLine<unknown, unknown>['registrations'],
  trackerOf: (server: unknown) => RegistrationTracker,
): void {
  const wrap = (names: readonly string[], wrapper: (method: Method) => Method) => {
    for (const name of names) (prototype as Record<string, Method>)[name] = wrapper((base as Record<string, Method>)[name]);
  };
  wrap(
    methods.tools,
    (method) =>
      function (this: unknown, ...args) {
        const handle = method.apply(this, args) as ToolHandle;
        madeOfShape(handle.inputSchema, (args[1] as { inputSchema?: unknown } | undefined)?.inputSchema);
        return trackerOf(this).registry.tools.track(args[0] as string, handle);
      },
  );
  wrap(
    methods.resources,
    (method) =>
      function (this: unknown, ...args) {
        const [name, uriOrTemplate] = args as [string, unknown];
        const { registry } = trackerOf(this);
        if (typeof uriOrTemplate === 'string') return registry.resources.track(uriOrTemplate, method.apply(this, args) as ResourceHandle);
        args[args.length - 1] = decodingCallback(args[args.length - 1] as TemplateHandle['readCallback']);
        const handle = method.apply(this, args) as TemplateHandle;
        registry.trackTemplate(name, handle);
        return handle;
      },
  );
  wrap(
    methods.prompts,
    (method) =>
      function (this: unknown, ...args) {
        const tracker = trackerOf(this);
        const handle = tracker.registry.prompts.track(args[0] as string, method.apply(this, args) as PromptHandle);
        tracker.promptRegistered();
        return handle;
      },
  );
}
