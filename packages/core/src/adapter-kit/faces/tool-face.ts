import { z } from 'zod';
import { workflowFaces, type WorkflowModel } from '../../model';
import { readWorkflowOptions, type WorkflowClass } from '../../model/read-workflow';
import type { ToolHandle } from '../registry/handles';
import type { McpServerLike } from '../registry/mcp-server-like';
import type { WorkflowArguments } from '../run/workflow-runner';
import { workflowEntryMeta } from './workflow-meta-entry';

/** A workflow served as a tool: what `tools/call` runs for it, and the schema its arguments are checked by. */
export interface ToolWorkflow<Context> {
  /** The `z.object` of the workflow's arguments: `tools/list`'s input schema, and the check of `tools/call`'s arguments. */
  readonly inputSchema: object;
  call(args: WorkflowArguments, context: Context): Promise<unknown>;
}

/** The `structuredContent` every workflow tool returns, as `tools/list` shows it. */
const WORKFLOW_TOOL_OUTPUT = z.object({
  status: z.enum(['completed', 'handoff', 'failed', 'cancelled']).describe('How the run ended'),
  outputs: z.record(z.string(), z.unknown()).describe("Each completed step's value, by its @Bind name"),
  truncated: z
    .object({ limitBytes: z.number(), outputs: z.array(z.string()) })
    .optional()
    .describe('Present when values were left out to keep the result within maxTraceBytes: the outputs a note replaced'),
});

const inputSchemas = new WeakMap<WorkflowClass, object>();

/**
 * The `z.object` of a workflow class's arguments, one per class and process: with a server per
 * request, the tool's schema is read (and its JSON Schema built) once, not once a request.
 */
export function workflowInputSchema(target: WorkflowClass): object {
  let schema = inputSchemas.get(target);
  if (!schema) {
    schema = z.object((readWorkflowOptions(target)?.arguments ?? {}) as unknown as z.ZodRawShape);
    inputSchemas.set(target, schema);
  }
  return schema;
}

/**
 * Serves a workflow as a tool (DESIGN §2.10): `tools/list` shows it under `name` with its
 * arguments as the input schema, `{ status, outputs }` as the output schema and
 * `_meta["mcpflow/workflow"]` (its steps and graph, DESIGN §2.15). A client's
 * `tools/call` reaches the kit's own handler (`routeToolCalls`); `inProcess` is the callback the
 * SDK holds, which a step of another workflow runs in process like any tool.
 *
 * @example
 * ```ts
 * const handle = registerToolFace(server, model, GetHint, { name: 'get_hint' }, (args, context) => runner.run(…));
 * ```
 */
export function registerToolFace(
  server: McpServerLike,
  model: WorkflowModel,
  target: WorkflowClass,
  tool: { readonly name: string; readonly title?: string },
  inProcess: (args: WorkflowArguments, context: never) => Promise<unknown>,
): ToolHandle {
  const config = {
    title: tool.title,
    description: model.description,
    inputSchema: workflowInputSchema(target),
    outputSchema: WORKFLOW_TOOL_OUTPUT,
    _meta: workflowEntryMeta(model, target),
  };
  return server.registerTool(tool.name, config, inProcess as never) as ToolHandle;
}

/**
 * Throws when a workflow's tool name is taken: by a tool of the server, by a definition this
 * `use()` registers, or by another workflow's tool. Checked for every class of a `use()` before any
 * is registered (all or nothing).
 */
export function checkToolNames(
  registered: { hasTool(name: string): boolean },
  served: readonly WorkflowModel[],
  models: readonly WorkflowModel[],
  definitions: readonly { readonly kind: string; readonly name: string }[],
): void {
  const taken = new Set(served.flatMap((model) => workflowFaces(model).tool?.name ?? []));
  for (const definition of definitions) if (definition.kind === 'tool') taken.add(definition.name);
  for (const model of models) {
    const name = workflowFaces(model).tool?.name;
    if (name === undefined) continue;
    if (taken.has(name) || registered.hasTool(name))
      throw new Error(
        `Tool ${name} is already registered on this server; give workflow class ${model.className} a tool name of its own: expose: { tool: { name: '…' } }.`,
      );
    taken.add(name);
  }
}
