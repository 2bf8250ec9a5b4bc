/**
 * Splits a field path such as `'items.0.name'` into its segments. Numeric segments index arrays.
 * Returns undefined for a path with an empty segment (`'a..b'`, `''`, `'a.'`).
 */
export function parseFieldPath(path: string): string[] | undefined {
  const segments = path.split('.');
  return segments.every((segment) => segment.length > 0) ? segments : undefined;
}

/** True when a path segment indexes an array. */
export function isIndexSegment(segment: string): boolean {
  return /^(0|[1-9][0-9]*)$/.test(segment);
}
