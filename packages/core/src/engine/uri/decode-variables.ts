import type { UriVariables } from './uri-template';

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    // Not valid percent-encoding (a bare '%'): the value is already as decoded as it gets.
    return value;
  }
}

/**
 * Decodes the values `UriTemplate.match` returns once. The SDK leaves them percent-encoded
 * (typescript-sdk #2728); WorkflowServer decodes so a template handler sees the value a step bound,
 * whether the read comes from a workflow step or from a client's `resources/read`.
 *
 * @example
 * ```ts
 * decodeVariables({ name: 'a%2Fb%20c' }); // { name: 'a/b c' }
 * ```
 */
export function decodeVariables<V extends UriVariables>(variables: V): V {
  const decoded: UriVariables = {};
  for (const [name, value] of Object.entries(variables)) {
    decoded[name] = Array.isArray(value) ? value.map(decode) : decode(value);
  }
  return decoded as V;
}
