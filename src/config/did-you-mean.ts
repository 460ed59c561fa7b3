import { quoteCapped } from './cap-text.js';

/** "Did you mean" hints: the nearest known word to a misspelt one, shared by every layer. */

/**
 * The candidate closest to `word`: equal ignoring case, or within two edits (or a third of the
 * word's length, for long names). Undefined when nothing is that close, or the word is blank.
 */
export function closestWord(word: string, candidates: Iterable<string>): string | undefined {
  // An empty or blank word is missing, not misspelt: any short name is "two edits" from it.
  if (word.trim() === '') return undefined;
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

/**
 * The known key an unknown one stands for: the closest word, else the one candidate that starts
 * with a key of three or more characters (`user` for `user_id`, many edits away). A shortened
 * name is a near miss only when it leaves no doubt: `max` starts two parameters, so it gets none.
 */
export function nearKey(key: string, candidates: readonly string[]): string | undefined {
  const near = closestWord(key, candidates);
  if (near !== undefined || key.length < 3) return near;
  const starting = candidates.filter((candidate) => candidate.toLowerCase().startsWith(key.toLowerCase()));
  return starting.length === 1 ? starting[0] : undefined;
}

/** `; did you mean "close_issue"?` for a near miss, else ''. */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const near = closestWord(word, candidates);
  return near === undefined ? '' : `; did you mean ${quoteCapped(near)}?`;
}

/**
 * ` (did you mean "b"?)` when `value` is a string close to one of an enum's `allowed` values,
 * else '': the hint after `expected one of "a" | "b", got "c"` (enumMismatch).
 */
export function enumNearMiss(value: unknown, allowed: readonly unknown[]): string {
  if (typeof value !== 'string') return '';
  const near = closestWord(
    value,
    allowed.filter((candidate): candidate is string => typeof candidate === 'string'),
  );
  return near === undefined ? '' : ` (did you mean ${quoteCapped(near)}?)`;
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
