/** "Did you mean" hints: the nearest known word to a misspelt one, shared by every layer. */

/**
 * The candidate closest to `word`: equal ignoring case, or within two edits (or a third of the
 * word's length, for long names). Undefined when nothing is that close.
 */
export function closestWord(word: string, candidates: Iterable<string>): string | undefined {
  const lower = word.toLowerCase();
  const limit = Math.max(2, Math.floor(word.length / 3));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    const distance = candidate.toLowerCase() === lower ? 0 : editDistance(candidate.toLowerCase(), lower, bestDistance);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** `; did you mean "close_issue"?` for a near miss, else ''. */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const near = closestWord(word, candidates);
  return near === undefined ? '' : `; did you mean "${near}"?`;
}

/** Levenshtein distance, cut off at `limit` (returns `limit` or more when it is further). */
export function editDistance(a: string, b: string, limit = Infinity): number {
  if (Math.abs(a.length - b.length) >= limit) return limit;
  let previous = Array.from({ length: b.length + 1 }, (_v, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length];
}
