import { canonicalJson } from '../../config/canonical-json.js';
import { joinPathKey } from '../../config/format-path.js';
import { ownValue } from '../../config/own-key.js';
import type { MatchKey } from './cassette.js';

/** The first field where a request differs from a recorded one. */
export interface Difference {
  /** A path such as `url`, `messages[2].content`, `tools[0].description`, `parameters.temperature`. */
  path: string;
  recorded: unknown;
  actual: unknown;
}

/** How a request compares with one recorded request. */
export interface Comparison {
  /** null when the two keys are equal. */
  difference: Difference | null;
  /** Equal leaf values met before the first difference: the higher, the closer. */
  score: number;
}

/** Match-key fields in the order a reader thinks about a request: where it goes, then what it says. */
const KEY_ORDER = ['method', 'url', 'model', 'system', 'messages', 'tools', 'parameters', 'body'];

/** Compares two match keys field by field, in KEY_ORDER, then depth first. */
export function compareKeys(recorded: MatchKey, actual: MatchKey): Comparison {
  const state = { score: 0 };
  const difference = walk(recorded, actual, '', state, KEY_ORDER);
  return { difference, score: state.score };
}

/**
 * The recorded key closest to `actual`: among `candidates` (indexes into `keys`), the one with
 * the most equal fields before its first difference; ties go to the earliest, which in an
 * in-order replay is the request the run was expected to send next.
 */
export function closestKey(keys: readonly MatchKey[], candidates: readonly number[], actual: MatchKey): { index: number; comparison: Comparison } | null {
  let best: { index: number; comparison: Comparison } | null = null;
  for (const index of candidates) {
    const comparison = compareKeys(keys[index], actual);
    if (!best || comparison.score > best.comparison.score) best = { index, comparison };
  }
  return best;
}

function walk(a: unknown, b: unknown, path: string, state: { score: number }, order?: readonly string[]): Difference | null {
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const difference = walk(a[i], b[i], `${path}[${i}]`, state);
      if (difference) return difference;
    }
    return null;
  }
  if (isRecord(a) && isRecord(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    keys.sort((x, y) => rank(x, order) - rank(y, order) || (x < y ? -1 : x > y ? 1 : 0));
    for (const key of keys) {
      // Own values only: a key one side lacks is absent there, never `constructor` of Object.prototype.
      const difference = walk(ownValue(a, key), ownValue(b, key), joinPathKey(path, key), state);
      if (difference) return difference;
    }
    return null;
  }
  if (canonicalJson(a) === canonicalJson(b)) {
    state.score++;
    return null;
  }
  return { path: path || '(request)', recorded: a, actual: b };
}

function rank(key: string, order: readonly string[] | undefined): number {
  if (!order) return 0;
  const position = order.indexOf(key);
  return position === -1 ? order.length : position;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return Boolean(value) && typeof value === 'object' && !Array.isArray(value);
}
