import { WORKFLOW_META_KEY, workflowMeta, type WorkflowModel } from '../../model';
import type { WorkflowClass } from '../../model/read-workflow';
import type { McpServerLike } from '../registry/mcp-server-like';
import { skillShownValues } from './skill-secrets';

/** The `_meta` of a workflow's prompt and tool entries: `{ "mcpflow/workflow": WorkflowMeta }`. */
export type WorkflowEntryMeta = Readonly<Record<typeof WORKFLOW_META_KEY, ReturnType<typeof workflowMeta>>>;

const metas = new WeakMap<WorkflowClass, WorkflowEntryMeta>();

/**
 * The `_meta` a workflow's `prompts/list` and `tools/list` entries carry (DESIGN §2.15), built once
 * per class and process (a server per request lists it without building it again). Its graph
 * redacts what the class's `SKILL.md` redacts, nested workflows' sensitive inputs included.
 */
export function workflowEntryMeta(model: WorkflowModel, target: WorkflowClass): WorkflowEntryMeta {
  let meta = metas.get(target);
  if (!meta) {
    meta = { [WORKFLOW_META_KEY]: workflowMeta(model, skillShownValues(model, target)) };
    metas.set(target, meta);
  }
  return meta;
}

/** A `prompts/list` result as both lines' handlers return it. */
interface PromptList {
  readonly prompts?: { name: string; _meta?: object }[];
}

type ListHandler = (request: unknown, context: unknown) => unknown;

const listing = new WeakSet<object>();

/**
 * Makes `prompts/list` show each prompt's `_meta` where the line's own handler leaves it out (SDK
 * 1.x keeps no `_meta` on a prompt; 2.x lists it itself, and then this changes nothing). Wraps the
 * handler once per server, after the SDK has set it (on the first `registerPrompt`).
 */
export function listPromptMeta(server: McpServerLike): void {
  const protocol = server.server as { _requestHandlers?: Map<string, ListHandler> };
  const stored = protocol._requestHandlers?.get('prompts/list');
  if (!stored || listing.has(protocol)) return;
  listing.add(protocol);
  const registered = () => (server as unknown as { _registeredPrompts?: Record<string, { _meta?: object }> })._registeredPrompts ?? {};
  protocol._requestHandlers!.set('prompts/list', (request, context) =>
    Promise.resolve(stored(request, context)).then((result) => {
      for (const prompt of (result as PromptList).prompts ?? []) {
        const meta = prompt._meta ?? (Object.hasOwn(registered(), prompt.name) ? registered()[prompt.name]._meta : undefined);
        if (meta !== undefined) prompt._meta = meta;
      }
      return result;
    }),
  );
}
