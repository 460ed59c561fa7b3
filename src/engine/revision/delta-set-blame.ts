import { formatPath, type PathSegments } from '../../config/source.js';
import { problemsByPlace, type ProblemsByPlace } from './delta-blame.js';
import type { PathBeforeRemoval } from './delta-remove.js';

/**
 * Which `set` entry made a problem of the merged build at a place no entry wrote (a flow component
 * a new entry point leaves unreached), so the error is located at that entry (docs/formats.md,
 * Delta), as a removal's is at its `remove` entry. The revision a delta applies to is valid, so
 * leaving out the entry that made the problem (every other entry and every removal applied) leaves
 * that place sound: the entry whose leaving out leaves no problem there, else (another entry made
 * another problem there) the one whose leaving out leaves no such problem there, else undefined.
 * Of several, the last: entries apply in order, so the last one needed is what made it. `keys` are
 * the entries' keys in `set`; `without(key)` makes the build with that entry left out, called only
 * once a problem has to be blamed: the error path. Places are compared by where their element sat
 * before any removal (`before`, the merged build's; `without` gives its own); new skill refs are
 * relative to `refsDir`.
 */
export function setEntryBlame(
  keys: readonly string[],
  refsDir: string,
  before: PathBeforeRemoval,
  without: (key: string) => { build: unknown; before: PathBeforeRemoval },
): (path: PathSegments, expected: string) => string | undefined {
  const left = new Map<string, ProblemsByPlace>();
  const problemsWithout = (key: string): ProblemsByPlace => {
    let found = left.get(key);
    if (!found) {
      const built = without(key);
      found = problemsByPlace(built.build, refsDir, built.before);
      left.set(key, found);
    }
    return found;
  };
  const latestFirst = [...keys].reverse();
  return (path, expected) => {
    const place = formatPath(before(path));
    return latestFirst.find((key) => !problemsWithout(key).has(place)) ?? latestFirst.find((key) => !problemsWithout(key).get(place)?.has(expected));
  };
}
