import type { AnyDefinition } from '../model';
import type { WorkflowClass } from '../model/read-workflow';
import type { AdapterLine } from './adapter-line';
import { WorkflowCatalog } from './catalog/workflow-catalog';
import { interceptRegistrations } from './registry/intercept-registrations';
import type { McpServerLike } from './registry/mcp-server-like';
import type { WorkflowServingOptions } from './workflow-serving-options';

/** What a WorkflowServer adds to its line's `McpServer`, the same on both lines. */
export interface WorkflowServing {
  /**
   * Registers each decorated class as a prompt, and the tool and resource definitions its steps
   * reference that are not registered yet. All classes are checked before any is registered; a
   * broken declaration throws here, synchronously: the one `WorkflowDefinitionError`, or a
   * `WorkflowValidationError` listing several. A class is checked and planned once per process.
   *
   * @example
   * ```ts
   * const server = new WorkflowServer({ name: 'interactive-fiction', version: '1.0.0' }).use(GetHint);
   * ```
   */
  use(...classes: WorkflowClass[]): this;
  /**
   * Registers tool and resource definitions from `defineTool`/`defineResource` on this server
   * (`use()` does it for those its workflows reference). A definition already registered is skipped.
   *
   * @example
   * ```ts
   * server.registerDefinitions(getWeather, forecast);
   * ```
   */
  registerDefinitions(...definitions: AnyDefinition[]): this;
  /**
   * Checks that every tool and resource a workflow uses is registered, and that every step's
   * arguments fit its tool's input schema (no unknown names, no constant the schema rejects, no
   * prompt argument into an input that takes no string). `connect()` calls it, and `serveStdio`/
   * `serveHttp` before they accept a connection; call it yourself to fail earlier (in a test, say).
   *
   * @example
   * ```ts
   * expect(() => server.validate()).toThrow(UnregisteredToolError);
   * ```
   */
  validate(): void;
  /**
   * Checks what `validate()` cannot check synchronously: that the task store can work in this
   * process (`bullmqTasks` without `bullmq` or `ioredis` installed rejects, naming the install).
   * `serveStdio` and `serveHttp` await it before they accept a connection. Connects nowhere.
   */
  ready(): Promise<void>;
}

/**
 * A line's `McpServer` class extended with {@link WorkflowServing}: each line's `WorkflowServer`
 * is `class WorkflowServer extends servingWorkflows(McpServer, line)`. Its second constructor
 * argument is read as {@link WorkflowServingOptions} (limits out of range throw there), and
 * `connect()` validates before it connects: nothing is served if a reference is broken.
 *
 * @example
 * ```ts
 * export class WorkflowServer extends servingWorkflows(McpServer, v1Line) {
 *   constructor(serverInfo: Implementation, options?: WorkflowServerOptions) {
 *     super(serverInfo, options);
 *   }
 * }
 * ```
 */
export function servingWorkflows<Server extends McpServerLike, Context>(
  McpServer: new (...args: any[]) => Server,
  line: AdapterLine<Server, Context>,
): new (...args: any[]) => Server & WorkflowServing {
  const Base = McpServer as new (...args: any[]) => McpServerLike;
  class Serving extends Base implements WorkflowServing {
    private readonly catalog: WorkflowCatalog<Server, Context>;

    constructor(...args: any[]) {
      super(...args);
      this.catalog = new WorkflowCatalog(this as unknown as Server, line, args[1] as WorkflowServingOptions | undefined);
    }

    use(...classes: WorkflowClass[]): this {
      this.catalog.use(classes);
      return this;
    }

    registerDefinitions(...definitions: AnyDefinition[]): this {
      this.catalog.registerDefinitions(definitions);
      return this;
    }

    validate(): void {
      this.catalog.validate();
    }

    ready(): Promise<void> {
      return this.catalog.ready();
    }

    override async connect(transport: never): Promise<void> {
      this.validate();
      await super.connect(transport);
    }

    static {
      interceptRegistrations(Serving.prototype, McpServer.prototype, line.registrations, (server) => (server as Serving).catalog);
    }
  }
  return Serving as unknown as new (...args: any[]) => Server & WorkflowServing;
}
