/**
 * The texts that give a sensitive value away: a string itself; a number's or BigInt's digits; for
 * an object or array, its JSON and every string inside it, so a tool that echoes one field of a
 * sensitive object is caught too. Never throws (cycles and BigInts included).
 *
 * @example
 * ```ts
 * sensitiveTexts({ user: 'svc', password: 'hunter2' }); // ['{"user":"svc","password":"hunter2"}', 'svc', 'hunter2']
 * ```
 */
export function sensitiveTexts(value: unknown): string[] {
  if (typeof value === 'string') return value ? [value] : [];
  if (typeof value === 'number' || typeof value === 'bigint') return [String(value)];
  if (typeof value !== 'object' || value === null) return [];
  const texts: string[] = [];
  const json = safeJson(value);
  if (json) texts.push(json);
  collectStrings(value, texts, new Set());
  return texts;
}

function collectStrings(value: unknown, into: string[], seen: Set<object>): void {
  if (typeof value === 'string') {
    if (value) into.push(value);
    return;
  }
  if (typeof value === 'bigint') {
    into.push(String(value));
    return;
  }
  if (typeof value !== 'object' || value === null || seen.has(value)) return;
  seen.add(value);
  for (const item of Array.isArray(value) ? value : Object.values(value)) collectStrings(item, into, seen);
}

function safeJson(value: object): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined; // A cycle or a BigInt: its strings are still collected one by one.
  }
}
