import type { RunEndEvent, WorkflowClass, WorkflowServingOptions } from '@mcpflow/core';
import { stubRegistrations, type RegisteringServer, type ResourceTemplateClass } from '../stubs/stub-registrations';
import type { LineRun } from './line-run';

/** What a line's `WorkflowServer` is to the testing kit. */
export interface TestedServer extends RegisteringServer {
  use(target: WorkflowClass): unknown;
  validate(): void;
}

/** A line's `WorkflowServer` and `ResourceTemplate` classes. */
export interface ServerClasses<Server extends TestedServer> {
  readonly WorkflowServer: new (info: { name: string; version: string }, options: WorkflowServingOptions) => Server;
  readonly ResourceTemplate: ResourceTemplateClass;
}

/**
 * The run's first server, checked in a fixed order before anything runs: the class's own wiring
 * (`use()` throws its definition error, 910xx), then the run's stub and answer keys, then what
 * the workflow names by string against the stubs (`validate()`, as `connect()` would).
 *
 * @example
 * ```ts
 * const server = checkedServer({ WorkflowServer, ResourceTemplate }, run);
 * ```
 */
export function checkedServer<Server extends TestedServer>(line: ServerClasses<Server>, run: LineRun): Server {
  const server = stubbedServer(line, run);
  run.checkKeys();
  server.validate();
  return server;
}

/**
 * A server of the line serving the workflow with the run's stubs and `serverOptions` (their
 * `onRunEnd` called after the kit's own): `use()` throws the class's
 * definition error; tools and resources the workflow names by string must have stubs (else
 * `validate()` throws, as `connect()` would).
 *
 * @example
 * ```ts
 * const server = stubbedServer({ WorkflowServer, ResourceTemplate }, run);
 * server.validate();
 * ```
 */
export function stubbedServer<Server extends TestedServer>(line: ServerClasses<Server>, run: LineRun): Server {
  const { onRunEnd } = run.serverOptions;
  const server = new line.WorkflowServer(
    { name: 'mcpflow-testing', version: '1.0.0' },
    {
      // Dev mode records each run, so that `rerun()` can run it again from a step (DESIGN §2.15).
      dev: true,
      ...run.serverOptions,
      onRunEnd: (event: RunEndEvent) => {
        run.onRunEnd(event);
        return onRunEnd?.(event);
      },
    },
  );
  const stubbing = stubRegistrations(server, run.stubs, run.calls, line.ResourceTemplate);
  server.use(run.target);
  stubbing.registerRemaining();
  return server;
}
