/** A piece of guidance text: literal text, or a `{name}` placeholder. */
export type GuidancePart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'placeholder'; readonly name: string; readonly start: number; readonly end: number };

/**
 * Splits guidance into text and `{name}` placeholders. `{{` and `}}` are literal braces; a `{` that
 * does not open a `{name}` is kept as text, so prose with braces in it does not break.
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
      const match = /^\{([A-Za-z_][A-Za-z0-9_-]*)\}/.exec(template.slice(index));
      if (match) {
        if (text) parts.push({ kind: 'text', text });
        text = '';
        parts.push({ kind: 'placeholder', name: match[1], start: index + 1, end: index + 1 + match[1].length });
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
