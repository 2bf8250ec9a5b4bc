/**
 * Every form in which the server itself may write a sensitive text: as is; JSON-escaped, once (an
 * argument dump) and twice (JSON text inside JSON); and percent-encoded as each RFC 6570 operator
 * encodes a value — `encodeURIComponent` for `{x}` `{/x}` `{.x}` `{?x}` `{&x}`, `encodeURI` for
 * `{+x}` — also with the `'` a URL parser escapes in a query. Longer forms first.
 *
 * @example
 * ```ts
 * secretForms('a/b"c'); // ['a%2Fb%22c', 'a/b%22c', 'a/b\\\\\\"c', 'a/b\\"c', 'a/b"c']
 * ```
 */
export function secretForms(text: string): string[] {
  const forms = new Set<string>();
  const add = (form: string | undefined) => {
    if (!form) return;
    forms.add(form);
    const escaped = jsonEscape(form);
    forms.add(escaped);
    forms.add(jsonEscape(escaped));
  };
  add(text);
  for (const encoded of [encode(encodeURIComponent, text), encode(encodeURI, text)]) {
    add(encoded);
    add(encoded?.replace(/'/g, '%27'));
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

function jsonEscape(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/** A text with a lone surrogate cannot be percent-encoded, so no URI the server builds can hold it. */
function encode(encoder: (text: string) => string, text: string): string | undefined {
  try {
    return encoder(text);
  } catch {
    return undefined;
  }
}
