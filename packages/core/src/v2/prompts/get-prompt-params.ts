import { z } from 'zod';

/**
 * `prompts/get` params as WorkflowServer parses them: anything goes, so that a malformed `name` or
 * `arguments` reaches the handler and gets an `InvalidParams` error that names it, instead of the
 * SDK's generic wire-schema failure.
 */
export const LenientGetPromptParams = z.looseObject({});
