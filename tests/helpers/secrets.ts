/**
 * Every form of `secret` a server could put on the wire: raw, JSON-escaped (once and twice), and
 * percent-encoded as each RFC 6570 operator encodes (`encodeURIComponent` for `{x}`, `{/x}`, `{.x}`,
 * `{?x}`, `{&x}`; `encodeURI` for `{+x}`), also inside JSON. Computed here, independently of the
 * server's redactor, so a test checks the redactor rather than repeating it.
 */
function secretForms(secret: string): string[] {
  const escape = (text: string) => JSON.stringify(text).slice(1, -1);
  const forms = new Set<string>();
  for (const form of [secret, encodeURIComponentSafe(secret), encodeURISafe(secret)]) {
    if (!form) continue;
    forms.add(form);
    forms.add(escape(form));
    forms.add(escape(escape(form)));
  }
  return [...forms];
}

/** Where a form of `secret` shows in `value` (its JSON text, and each string decoded as a URI component), or undefined. */
export function findSecret(value: unknown, secret: string): string | undefined {
  const wire = JSON.stringify(value) ?? '';
  for (const form of secretForms(secret)) {
    const at = wire.indexOf(form);
    if (at >= 0) return `${JSON.stringify(form)} in …${wire.slice(Math.max(0, at - 60), at + form.length + 20)}…`;
  }
  for (const text of strings(value)) {
    const decoded = decodeSafe(text);
    if (decoded.includes(secret)) return `percent-encoded in ${JSON.stringify(text.slice(0, 200))}`;
  }
  return undefined;
}

/** Every string in a JSON-like value, keys included. */
function strings(value: unknown, into: string[] = []): string[] {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) strings(item, into);
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      into.push(key);
      strings(item, into);
    }
  }
  return into;
}

function decodeSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    // A lone '%' or a broken sequence: decode what can be, piece by piece.
    return text.replace(/(%[0-9A-Fa-f]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  }
}

function encodeURIComponentSafe(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return ''; // A lone surrogate cannot be encoded, so no URI can hold it.
  }
}

function encodeURISafe(text: string): string {
  try {
    return encodeURI(text);
  } catch {
    return '';
  }
}
