import { hashValue } from '../../config/canonical-json.js';
import { leadingPlainKeys } from './delta-path.js';

/**
 * The delta hash of a revision whose deltas so far hash to `previous` (null: none) after one more
 * delta that changed its build: deltas applied in turn hash together, in order.
 */
export function chainDeltaHash(previous: string | null, delta: unknown): string {
  const own = hashValue(deltaHashForm(delta));
  return previous ? hashValue([previous, own]) : own;
}

/** The delta hash of a build after `deltas` (those that changed it, in order), as applyDelta gives it: null for none. */
export function deltasHash(deltas: readonly unknown[] = []): string | null {
  return deltas.reduce<string | null>((previous, delta) => chainDeltaHash(previous, delta), null);
}

/**
 * What a delta is hashed and compared as (docs/verdicts.md, resolved): the delta itself when no
 * two `set` entries can write the same place, so those hash as they always did; otherwise `set`
 * becomes its [key, value] entries in written order, since the later entry's value wins
 * (docs/formats.md, Delta) and canonical JSON would sort that order away.
 */
export function deltaHashForm(delta: unknown): unknown {
  if (!isPlainObject(delta) || !isPlainObject(delta.set)) return delta;
  const entries = Object.entries(delta.set);
  if (!setKeysMayOverlap(entries.map(([key]) => key))) return delta;
  return { ...delta, set: entries };
}

/**
 * Whether two `set` keys can write the same place: one's leading plain keys (leadingPlainKeys) are
 * a prefix of the other's (`agent` and `agent.max_turns`; `agent.tools[name=a].x` and
 * `agent.tools.0.y`). A key that cannot be read may write anywhere.
 */
function setKeysMayOverlap(keys: readonly string[]): boolean {
  const leads = keys.map(leadingPlainKeys);
  return leads.some((a, i) => leads.some((b, j) => j > i && (!a || !b || startsWith(a, b) || startsWith(b, a))));
}

function startsWith(keys: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= keys.length && prefix.every((key, index) => key === keys[index]);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
