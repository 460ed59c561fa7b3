import { hashValue } from '../../config/canonical-json.js';

/**
 * The delta hash of a revision whose deltas so far hash to `previous` (null: none) after one more
 * delta that changed its build: deltas applied in turn hash together, in order.
 */
export function chainDeltaHash(previous: string | null, delta: unknown): string {
  const own = hashValue(delta);
  return previous ? hashValue([previous, own]) : own;
}

/** The delta hash of a build after `deltas` (those that changed it, in order), as applyDelta gives it: null for none. */
export function deltasHash(deltas: readonly unknown[] = []): string | null {
  return deltas.reduce<string | null>((previous, delta) => chainDeltaHash(previous, delta), null);
}
