import { boundText } from '../../engine';
import { didYouMean } from '../../rules';
import type { AdapterLine } from '../adapter-line';
import type { PromptHandle } from '../registry/handles';
import type { ServerRegistry } from '../registry/server-registry';
import type { WorkflowArguments } from '../run/workflow-runner';
import { parsePromptArguments } from './parse-prompt-arguments';

/** A workflow served as a prompt: what `prompts/get` runs for it. */
export interface PromptedWorkflow<Context> {
  /**
   * The `z.object` its arguments are checked by: one per class and process (`workflowInputSchema`),
   * not the one the SDK builds at each registration, so a server built per request does not make
   * (and zod compile) a new schema each time. Absent when the class declares no arguments.
   */
  readonly argsSchema?: object;
  run(args: WorkflowArguments, context: Context): Promise<unknown>;
}

/**
 * WorkflowServer's `prompts/get`, for every prompt of the server: the name and the arguments are
 * checked here, so that each problem is an `InvalidParams` error that names it (not the SDK's
 * `-32603` with a raw schema dump); then a workflow runs, and a plain prompt's own callback is called.
 *
 * @example
 * ```ts
 * line.handleGetPrompt(server, (name, args, context) => getPrompt(line, registry, workflows, name, args, context));
 * ```
 */
export async function getPrompt<Context>(
  line: AdapterLine<unknown, Context>,
  registry: ServerRegistry,
  workflows: WeakMap<PromptHandle, PromptedWorkflow<Context>>,
  name: unknown,
  raw: unknown,
  context: Context,
): Promise<unknown> {
  // Kept to as few awaits as possible: it is on every prompts/get.
  if (typeof name !== 'string') throw line.invalidParams(`prompts/get needs 'name', the prompt's name as a string`);
  const prompt = registry.prompts.get(name);
  if (!prompt) throw line.invalidParams(`Prompt ${boundText(name, 200)} not found.${didYouMean(name, registry.prompts.keys())}`);
  if (!prompt.enabled) throw line.invalidParams(`Prompt ${name} disabled`);
  const workflow = workflows.get(prompt);
  const schema = workflow ? workflow.argsSchema : prompt.argsSchema;
  const parsed = parsePromptArguments(line, 'prompt', name, schema, raw, workflow !== undefined);
  const args = parsed instanceof Promise ? await parsed : parsed;
  if (workflow) return workflow.run((args ?? {}) as WorkflowArguments, context);
  return line.callPrompt(prompt, args, raw, context);
}
