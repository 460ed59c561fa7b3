import type { Locator } from '../../config/assert-format.js';
import { ConfigError } from '../../config/errors.js';
import { formatPath, type PathSegments } from '../../config/source.js';
import type { PathBeforeRemoval } from './delta-remove.js';
import { validateBuild } from './validate-build.js';

/**
 * Which `remove` entry of a delta made a problem of the merged build, so the error is located at
 * that entry (docs/formats.md, Delta: "the line of the value that made the build invalid"). The
 * revision a delta applies to is valid, so a problem the build after `set` alone also has is
 * `set`'s (undefined); any other comes from a removal: the only entry, else the entry whose removal
 * alone gives that problem, else the first whose removal alone leaves the build invalid.
 * `afterSet` makes the build after `set` (undefined when the delta has no `set`: nothing to blame
 * there), called only once a problem has to be blamed; `without(entry)` is that build with only
 * that entry removed; new skill refs are relative to `refsDir`. Problems are compared by where
 * their element sat before any removal (`before`, the merged build's; `without` gives its own), so
 * a tool moved up a place by a removal keeps the problem `set` wrote into it.
 */
export function removalBlame(
  afterSet: (() => unknown) | undefined,
  entries: readonly number[],
  refsDir: string,
  before: PathBeforeRemoval,
  without: (entry: number) => { build: unknown; before: PathBeforeRemoval },
): (path: PathSegments, expected: string) => number | undefined {
  let setProblems: Set<string> | undefined;
  const alone = new Map<number, Set<string>>();
  const problemsWithout = (entry: number): Set<string> => {
    let keys = alone.get(entry);
    if (!keys) {
      const removed = without(entry);
      alone.set(entry, (keys = problemKeys(removed.build, refsDir, removed.before)));
    }
    return keys;
  };
  return (path, expected) => {
    if (!entries.length) return undefined;
    const key = problemKey(before(path), expected);
    if (afterSet !== undefined && (setProblems ??= problemKeys(afterSet(), refsDir, (same) => same)).has(key)) return undefined;
    if (entries.length === 1) return entries[0];
    return entries.find((entry) => problemsWithout(entry).has(key)) ?? entries.find((entry) => problemsWithout(entry).size > 0) ?? entries[0];
  };
}

const problemKey = (path: PathSegments, expected: string) => `${formatPath(path)}\n${expected}`;

/**
 * The problems validateBuild finds in a build (its skill refs relative to `refsDir`), as keys at
 * their paths before any removal (none for a valid build).
 */
function problemKeys(build: unknown, refsDir: string, before: PathBeforeRemoval): Set<string> {
  const keys = new Set<string>();
  const record: Locator = (path, expected) => {
    keys.add(problemKey(before(path), expected));
    return new ConfigError({ file: '<delta>' }, expected);
  };
  try {
    validateBuild(build, record, refsDir);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
  }
  return keys;
}
