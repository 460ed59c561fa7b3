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
 * What a delta is hashed and compared as (docs/verdicts.md, resolved): deltas that make the same
 * build by the same writes take one form. `set` stays itself when no two of its entries can write
 * the same place (canonical JSON sorts its keys); otherwise it becomes its [key, value] entries in
 * setEntriesInHashOrder. `remove` entries are sorted: each names a place in the build `set` left
 * (docs/formats.md, Delta), so their order changes nothing. A delta already in that form is
 * returned as it is, so it hashes as it did before order was normalized.
 */
export function deltaHashForm(delta: unknown): unknown {
  if (!isPlainObject(delta)) return delta;
  const set = isPlainObject(delta.set) ? setHashForm(delta.set) : delta.set;
  const remove = removeHashForm(delta.remove);
  if (set === delta.set && remove === delta.remove) return delta;
  return { ...delta, ...(set === delta.set ? {} : { set }), ...(remove === delta.remove ? {} : { remove }) };
}

function setHashForm(set: Record<string, unknown>): unknown {
  const entries = Object.entries(set);
  const overlaps = setKeyOverlaps(entries.map(([key]) => key));
  if (!overlaps.some((row) => row.some(Boolean))) return set;
  return setEntriesInHashOrder(entries, overlaps);
}

/**
 * `set` entries in one order for all the orders that write alike: two entries that may write the
 * same place keep their written order (the later one's value wins), others may pass each other.
 * Of those orders it is the one with the smallest key first at each step, so a `set` whose pairs
 * keep their order hashes the same however its other entries are interleaved.
 */
function setEntriesInHashOrder(entries: ReadonlyArray<[string, unknown]>, overlaps: readonly boolean[][]): Array<[string, unknown]> {
  // Kahn's order, the smallest free key first: an entry is free once every earlier entry that may
  // write its place is placed (quadratic, as the overlap table already is).
  const waiting = entries.map((_, index) => entries.reduce((count, _entry, other) => count + (other < index && overlaps[other][index] ? 1 : 0), 0));
  const placed = entries.map(() => false);
  const ordered: Array<[string, unknown]> = [];
  for (let step = 0; step < entries.length; step++) {
    let next = -1;
    for (let index = 0; index < entries.length; index++) {
      if (placed[index] || waiting[index] > 0) continue;
      if (next < 0 || entries[index][0] < entries[next][0]) next = index;
    }
    placed[next] = true;
    ordered.push(entries[next]);
    for (let later = next + 1; later < entries.length; later++) if (overlaps[next][later]) waiting[later]--;
  }
  return ordered;
}

/** `remove` sorted, or as given when it is sorted already or is not a list of strings (it is then refused elsewhere). */
function removeHashForm(remove: unknown): unknown {
  if (!Array.isArray(remove) || !remove.every((path) => typeof path === 'string')) return remove;
  const sorted = [...remove].sort();
  return sorted.every((path, index) => path === remove[index]) ? remove : sorted;
}

/**
 * For each pair of `set` keys, whether they can write the same place: one's leading plain keys
 * (leadingPlainKeys) are a prefix of the other's (`agent` and `agent.max_turns`;
 * `agent.tools[name=a].x` and `agent.tools.0.y`). A key that cannot be read may write anywhere.
 */
function setKeyOverlaps(keys: readonly string[]): boolean[][] {
  const leads = keys.map(leadingPlainKeys);
  return leads.map((a, i) => leads.map((b, j) => j !== i && (!a || !b || startsWith(a, b) || startsWith(b, a))));
}

function startsWith(keys: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= keys.length && prefix.every((key, index) => key === keys[index]);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
