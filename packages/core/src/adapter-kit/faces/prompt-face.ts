import type { WorkflowModel } from '../../model';
import { readWorkflowOptions, type WorkflowClass } from '../../model/read-workflow';
import type { PromptHandle } from '../registry/handles';
import type { McpServerLike } from '../registry/mcp-server-like';
import type { ServerRegistry } from '../registry/server-registry';
import type { WorkflowArguments } from '../run/workflow-runner';
import { listPromptMeta, workflowEntryMeta } from './workflow-meta-entry';

/**
 * Throws when a workflow's prompt name is taken by a plain prompt of the server: checked for every
 * class of a `use()` before any is registered (all or nothing).
 */
export function checkPromptNames(registry: ServerRegistry, models: readonly WorkflowModel[]): void {
  const taken = models.find((model) => registry.prompts.get(model.name));
  if (taken)
    throw new Error(`Prompt ${taken.name} is already registered on this server; give workflow class ${taken.className} another name.`);
}

/**
 * Serves a workflow as a prompt (its default face, DESIGN §2.10): `prompts/list` shows it with its
 * arguments and `_meta["mcpflow/workflow"]` (its steps and graph, DESIGN §2.15), and `prompts/get` runs it (through the kit's own handler, which calls `run`).
 *
 * @example
 * ```ts
 * const handle = registerPromptFace(server, model, GetHint, (args, context) => runner.run(plan, asks, args, context));
 * ```
 */
export function registerPromptFace(
  server: McpServerLike,
  model: WorkflowModel,
  target: WorkflowClass,
  run: (args: WorkflowArguments, context: never) => Promise<unknown>,
): PromptHandle {
  const _meta = workflowEntryMeta(model, target);
  const config = { title: model.title, description: model.description, argsSchema: readWorkflowOptions(target)?.arguments, _meta };
  const handle = server.registerPrompt(model.name, config, run as never) as PromptHandle & { _meta?: object };
  handle._meta ??= _meta;
  listPromptMeta(server);
  return handle;
}
