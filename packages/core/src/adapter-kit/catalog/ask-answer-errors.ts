import { z } from 'zod';
import type { AnyDefinition, WorkflowModel } from '../../model';
import { ErrorCodes, checkToolArguments, type WorkflowDefinitionError } from '../../rules';
import type { AdapterLine } from '../adapter-line';
import type { ToolHandle } from '../registry/handles';
import type { ServerRegistry } from '../registry/server-registry';
import { madeOfShape, toolInputSchema } from '../tools/tool-inputs';

/**
 * What `use()` can already tell of the asks' answers, before it registers anything: an ask whose
 * answer is a string filling an input that takes none (AskAnswerType), for the tools the server
 * has registered and the tool definitions `use()` is about to register (their zod schemas are
 * known). The other argument rules stay with `connect()`/`validate()`.
 *
 * @example
 * ```ts
 * throwIfAny(askAnswerErrors(models, definitions, registry, line));
 * ```
 */
export function askAnswerErrors(
  models: readonly WorkflowModel[],
  definitions: readonly AnyDefinition[],
  registry: ServerRegistry,
  line: AdapterLine<unknown, unknown>,
): WorkflowDefinitionError[] {
  const lookup = {
    toolInputSchema(name: string) {
      const registered = registry.toolInputSchema(name);
      if (registered) return registered;
      const definition = definitions.find((each) => each.kind === 'tool' && each.name === name);
      if (definition?.kind !== 'tool') return undefined;
      const inputSchema = z.object(definition.config.inputSchema);
      madeOfShape(inputSchema, definition.config.inputSchema);
      return toolInputSchema(line, { inputSchema } as unknown as ToolHandle);
    },
  };
  return models.flatMap((model) => checkToolArguments(model, lookup).filter((error) => error.code === ErrorCodes.AskAnswerType));
}
