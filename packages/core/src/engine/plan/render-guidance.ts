import { parseGuidance } from '../../model';

/** Renders a step's guidance for one request's arguments; an absent optional argument renders as empty. */
export type GuidanceRenderer = (args: Readonly<Record<string, string | undefined>>) => string;

/** Splits guidance once, at `use()`; rendering is then a join. */
export function planGuidance(template: string): GuidanceRenderer {
  const parts = parseGuidance(template);
  if (parts.every((part) => part.kind === 'text')) {
    const text = parts.map((part) => (part.kind === 'text' ? part.text : '')).join('');
    return () => text;
  }
  return (args) => {
    let text = '';
    for (const part of parts) text += part.kind === 'text' ? part.text : (args[part.name] ?? '');
    return text;
  };
}
