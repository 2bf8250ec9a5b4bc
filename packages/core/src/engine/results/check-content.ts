/**
 * Shape checks for MCP content, as the protocol's schemas (and so `tools/call` and
 * `resources/read`) require: each returns the first problem, naming the field, or undefined.
 */

const BLOCK_TYPES = ['text', 'image', 'audio', 'resource_link', 'resource'] as const;

/** Why a content block of a tool result is malformed, if it is. */
export function contentBlockProblem(block: unknown, path: string): string | undefined {
  if (!isObject(block)) return `${path} is ${describe(block)}, not a content block`;
  const { type } = block;
  if (!BLOCK_TYPES.includes(type as (typeof BLOCK_TYPES)[number])) {
    return `${path}.type is ${typeof type === 'string' ? `'${type.slice(0, 40)}'` : describe(type)}, not one of ${BLOCK_TYPES.join(', ')}`;
  }
  const meta = metaProblem(block, path);
  if (meta) return meta;
  switch (type) {
    case 'text':
      return stringProblem(block, 'text', path);
    case 'image':
    case 'audio':
      return stringProblem(block, 'data', path) ?? stringProblem(block, 'mimeType', path);
    case 'resource_link':
      return (
        stringProblem(block, 'uri', path) ??
        stringProblem(block, 'name', path) ??
        optionalStringProblem(block, ['description', 'mimeType', 'title'], path)
      );
    default:
      return resourceContentsProblem(block.resource, `${path}.resource`);
  }
}

/** Why one content of a resource read (or of an embedded resource) is malformed, if it is. */
export function resourceContentsProblem(contents: unknown, path: string): string | undefined {
  if (!isObject(contents)) return `${path} is ${describe(contents)}, not resource contents`;
  const problem =
    stringProblem(contents, 'uri', path) ?? optionalStringProblem(contents, ['mimeType'], path) ?? metaProblem(contents, path);
  if (problem) return problem;
  if ('text' in contents) return stringProblem(contents, 'text', path);
  if ('blob' in contents) return stringProblem(contents, 'blob', path);
  return `${path} has neither 'text' nor 'blob'`;
}

function stringProblem(object: Record<string, unknown>, key: string, path: string): string | undefined {
  const value = object[key];
  return typeof value === 'string' ? undefined : `${path}.${key} is ${describe(value)}, not a string`;
}

function optionalStringProblem(object: Record<string, unknown>, keys: readonly string[], path: string): string | undefined {
  for (const key of keys) if (object[key] !== undefined && typeof object[key] !== 'string') return stringProblem(object, key, path);
  return undefined;
}

function metaProblem(object: Record<string, unknown>, path: string): string | undefined {
  const meta = object._meta;
  return meta === undefined || isObject(meta) ? undefined : `${path}._meta is ${describe(meta)}, not an object`;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `a number`, `an object`, `null`, `an array`, `undefined` (missing). */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'missing';
  if (Array.isArray(value)) return 'an array';
  return /^[aeiou]/.test(typeof value) ? `an ${typeof value}` : `a ${typeof value}`;
}
