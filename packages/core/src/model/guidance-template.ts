/**
 * A piece of guidance text: literal text, or a `{name}` placeholder. Inside `forEach`, `{item}` is
 * the current element and `{item.a.b}` a value inside it (`path` is then `'a.b'`).
 */
export type GuidancePart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'placeholder'; readonly name: string; readonly path?: string; readonly start: number; readonly end: number };

/** The placeholder name that reads the current `forEach` element. */
export const ITEM_PLACEHOLDER = 'item';

/**
 * Splits guidance into text and `{name}` placeholders (and `{item.a.b}`). `{{` and `}}` are literal
 * braces; a `{` that does not open a placeholder is kept as text, so prose with braces in it does not break.
 */
export function parseGuidance(template: string): GuidancePart[] {
  const parts: GuidancePart[] = [];
  let text = '';
  let index = 0;
  while (index < template.length) {
    const char = template[index];
    const next = template[index + 1];
    if ((char === '{' && next === '{') || (char === '}' && next === '}')) {
      text += char;
      index += 2;
      continue;
    }
    if (char === '{') {
      const match = /^\{([A-Za-z_][A-Za-z0-9_-]*)\}|^\{item\.([A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*)\}/.exec(template.slice(index));
      if (match) {
        if (text) parts.push({ kind: 'text', text });
        text = '';
        const end = index + match[0].length - 1;
        parts.push(
          match[1] !== undefined
            ? { kind: 'placeholder', name: match[1], start: index + 1, end }
            : { kind: 'placeholder', name: ITEM_PLACEHOLDER, path: match[2], start: index + 1, end },
        );
        index += match[0].length;
        continue;
      }
    }
    text += char;
    index += 1;
  }
  if (text) parts.push({ kind: 'text', text });
  return parts;
}
