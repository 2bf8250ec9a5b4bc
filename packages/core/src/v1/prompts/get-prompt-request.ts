import { z } from 'zod';

/**
 * `prompts/get` as WorkflowServer parses it: only the method is checked by the schema, so that a
 * malformed `name` or `arguments` reaches the handler and gets an `InvalidParams` error that names
 * it, instead of the SDK's `-32603` with a raw zod dump (typescript-sdk #2284).
 */
export const LenientGetPromptRequestSchema = z.object({
  method: z.literal('prompts/get'),
  params: z.unknown(),
});
