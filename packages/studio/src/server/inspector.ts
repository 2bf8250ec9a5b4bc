import type { Client } from '@modelcontextprotocol/client';
import { ApiError, type InspectorInput, type InspectorListing } from './api-types';

/** The `_meta` key of a workflow's prompt and tool entries: those are listed as workflows, not here. */
const WORKFLOW_META = 'mcpflow/workflow';
/** At most this many tools, prompts and resources each are listed (a hostile server may list millions). */
const MAX_ENTRIES = 200;
/** At most this many characters of a name, description or URI. */
const MAX_TEXT = 2000;
/** At most this many bytes of a result (as JSON) reach the page; past it, the answer says so. */
const MAX_RESULT_BYTES = 256 * 1024;

interface Listed {
  readonly name: string;
  readonly description?: string;
  readonly _meta?: Record<string, unknown>;
}

/** Lists what the server serves besides its workflows, each list capped, each text cut. */
export async function inspectorListing(client: Client): Promise<InspectorListing> {
  const capabilities = client.getServerCapabilities() ?? {};
  const plain = <T extends Listed>(entries: T[]): T[] =>
    entries.filter((entry) => entry._meta?.[WORKFLOW_META] === undefined).slice(0, MAX_ENTRIES);
  const tools = capabilities.tools ? plain((await client.listTools()).tools as (Listed & { inputSchema?: unknown })[]) : [];
  const prompts = capabilities.prompts ? plain((await client.listPrompts()).prompts as (Listed & { arguments?: unknown })[]) : [];
  const resources = capabilities.resources ? (await client.listResources()).resources.slice(0, MAX_ENTRIES) : [];
  return {
    tools: tools.map((tool) => ({ name: cut(tool.name), ...described(tool.description), inputs: inputsOf(tool.inputSchema) })),
    prompts: prompts.map((prompt) => ({
      name: cut(prompt.name),
      ...described(prompt.description),
      arguments: (Array.isArray(prompt.arguments)
        ? (prompt.arguments as { name?: unknown; required?: unknown; description?: unknown }[])
        : []
      )
        .slice(0, MAX_ENTRIES)
        .map((argument) => ({
          name: cut(String(argument.name)),
          required: argument.required === true,
          ...described(typeof argument.description === 'string' ? argument.description : undefined),
        })),
    })),
    resources: resources.map((resource) => ({ uri: cut(resource.uri), name: cut(resource.name), ...described(resource.description) })),
  };
}

/** Calls a plain tool with the page's arguments; the result as the server sent it, capped. */
export async function callPlainTool(client: Client, body: unknown): Promise<unknown> {
  const { name, arguments: args } = (body ?? {}) as { name?: unknown; arguments?: unknown };
  if (typeof name !== 'string' || name === '') throw new ApiError(400, 'name must be the name of a tool (a non-empty string).', 'name');
  if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args)))
    throw new ApiError(400, "arguments must be an object of the tool's arguments.", 'arguments');
  return capped(await client.callTool({ name, arguments: (args ?? {}) as Record<string, unknown> }));
}

/**
 * Gets a plain prompt with the page's arguments (`prompts/get`; a prompt's arguments are strings);
 * its messages as the server sent them, capped. The server's error (a missing required argument)
 * reaches the page as it said it.
 */
export async function getPlainPrompt(client: Client, body: unknown): Promise<unknown> {
  const { name, arguments: args } = (body ?? {}) as { name?: unknown; arguments?: unknown };
  if (typeof name !== 'string' || name === '') throw new ApiError(400, 'name must be the name of a prompt (a non-empty string).', 'name');
  if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args)))
    throw new ApiError(400, "arguments must be an object of the prompt's arguments.", 'arguments');
  const given = Object.entries((args ?? {}) as Record<string, unknown>);
  const wrong = given.find(([, value]) => typeof value !== 'string');
  if (wrong) throw new ApiError(400, `arguments.${wrong[0]} must be a string: a prompt's arguments are strings.`, `arguments.${wrong[0]}`);
  try {
    return capped(await client.getPrompt({ name, arguments: Object.fromEntries(given) as Record<string, string> }));
  } catch (error) {
    // The server's answer (a JSON-RPC error: a missing argument, an unknown prompt) is the user's to read, not the studio's failure.
    if (typeof (error as { code?: unknown }).code === 'number') throw new ApiError(422, cut((error as Error).message));
    throw error;
  }
}

/** Reads a resource by URI; its contents as the server sent them, capped. */
export async function readResource(client: Client, body: unknown): Promise<unknown> {
  const { uri } = (body ?? {}) as { uri?: unknown };
  if (typeof uri !== 'string' || uri === '') throw new ApiError(400, 'uri must be the URI of a resource (a non-empty string).', 'uri');
  return capped(await client.readResource({ uri }));
}

/** The form inputs of a tool's input schema: one per property, typed by its JSON Schema. */
function inputsOf(schema: unknown): InspectorInput[] {
  const { properties, required } = (schema ?? {}) as { properties?: unknown; required?: unknown };
  if (typeof properties !== 'object' || properties === null) return [];
  const needed = new Set(Array.isArray(required) ? required : []);
  return Object.entries(properties as Record<string, { type?: unknown; enum?: unknown; description?: unknown }>)
    .slice(0, MAX_ENTRIES)
    .map(([name, property]) => {
      const choices = Array.isArray(property?.enum)
        ? (property.enum as unknown[]).filter((choice): choice is string | number | boolean =>
            ['string', 'number', 'boolean'].includes(typeof choice),
          )
        : undefined;
      const type = choices
        ? 'enum'
        : property?.type === 'number' || property?.type === 'integer' || property?.type === 'boolean'
          ? property.type
          : 'text';
      return {
        name: cut(name),
        type,
        required: needed.has(name),
        ...described(typeof property?.description === 'string' ? property.description : undefined),
        ...(choices ? { choices: choices.slice(0, MAX_ENTRIES) } : {}),
      };
    });
}

function described(description: string | undefined): { description?: string } {
  return typeof description === 'string' ? { description: cut(description) } : {};
}

function cut(text: string): string {
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text;
}

/** The value, or — over `MAX_RESULT_BYTES` as JSON — a note and the start of its JSON text. */
function capped(value: unknown): unknown {
  const json = JSON.stringify(value) ?? 'null';
  if (Buffer.byteLength(json) <= MAX_RESULT_BYTES) return value;
  return {
    truncated: `The result is ${Buffer.byteLength(json)} bytes: only the first ${MAX_RESULT_BYTES} are shown.`,
    start: json.slice(0, MAX_RESULT_BYTES),
  };
}
