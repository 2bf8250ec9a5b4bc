/** Edit distance between two names (Levenshtein), for "did you mean" hints. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
    }
    previous = current;
  }
  return previous[b.length];
}

/**
 * The candidate closest to `name`, if it is close enough to be a plausible typo or a name that
 * contains the other (`analysis` → `analysis_result`).
 */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestScore = Infinity;
  const lower = name.toLowerCase();
  const limit = Math.max(2, Math.floor(name.length / 3));
  for (const candidate of candidates) {
    const other = candidate.toLowerCase();
    const contains = other.includes(lower) || lower.includes(other);
    // Names whose lengths differ by more than the limit cannot be within it: skip the O(n·m) distance,
    // so a hostile megabyte-long name costs a scan, not seconds.
    const score = contains ? 0.5 : Math.abs(lower.length - other.length) > limit ? Infinity : editDistance(lower, other);
    if (score < bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  return bestScore <= limit ? best : undefined;
}

/** `'a', 'b'` — or `(none)` — for listing the names that do exist. */
export function listNames(names: readonly string[]): string {
  return names.length ? names.map((name) => `'${name}'`).join(', ') : '(none)';
}

/** ` Did you mean 'x'?` when a close candidate exists, else an empty string. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const suggestion = closestName(name, candidates);
  return suggestion === undefined ? '' : ` Did you mean '${suggestion}'?`;
}
