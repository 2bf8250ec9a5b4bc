import { parseFieldPath, parseGuidance, type GuidancePart } from '../../model';
import type { ExecutionScope } from './resolve-source';

/**
 * Renders a step's guidance for one request (and one `forEach` element); an absent optional
 * argument renders as empty. `client` marks the prompt arguments it fills in as the client's text.
 */
export type GuidanceRenderer = (scope: ExecutionScope, client: (text: string) => string) => string;

/** Splits guidance once, at `use()`; rendering is then a join. */
export function planGuidance(template: string, readsItem: boolean): GuidanceRenderer {
  const parts = parseGuidance(template);
  if (parts.every((part) => part.kind === 'text')) {
    const text = parts.map((part) => (part.kind === 'text' ? part.text : '')).join('');
    return () => text;
  }
  const render = parts.map((part) => partRenderer(part, readsItem));
  return (scope, client) => {
    let text = '';
    for (const piece of render) text += piece(scope, client);
    return text;
  };
}

function partRenderer(part: GuidancePart, readsItem: boolean): GuidanceRenderer {
  if (part.kind === 'text') return () => part.text;
  const { name, path } = part;
  if (!readsItem || name !== 'item') return (scope, client) => client(scope.args[name] ?? '');
  const segments = path === undefined ? [] : (parseFieldPath(path) ?? []);
  return (scope) => {
    let value: unknown = scope.iteration?.item;
    for (const segment of segments)
      value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[segment] : undefined;
    return value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  };
}
