import type { Locator } from '../../config/assert-format.js';
import { ConfigError } from '../../config/errors.js';
import { formatPath, type PathSegments } from '../../config/source.js';
import type { PathBeforeRemoval } from './delta-remove.js';
import { validateBuild } from './validate-build.js';

/** A build's problems: each place (its path before any removal) and what is said there. */
export type ProblemsByPlace = Map<string, Set<string>>;

/**
 * Which `remove` entry of a delta made a problem of the merged build, so the error is located at
 * that entry (docs/formats.md, Delta: "the line of the value that made the build invalid"). The
 * revision a delta applies to is valid, so a problem the build after `set` alone has too (at that
 * place, of that kind) is `set`'s (undefined); any other comes from a removal, also at a place where
 * `set` alone has another problem (a component a new entry point leaves unreached, and a removal
 * leaves without a router): the only entry, else the entry whose removal alone gives a problem at
 * that place (the same problem first), else the first whose removal alone leaves the build invalid.
 * Problems are compared by kind, not word for word: a message may name what the other removals
 * leave (a did-you-mean, the tools left), so it differs from build to build.
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
  let setProblems: ProblemsByPlace | undefined;
  const ofSet = (): ProblemsByPlace => (setProblems ??= afterSet ? problemsByPlace(afterSet(), refsDir, (same) => same) : new Map());
  const alone = new Map<number, ProblemsByPlace>();
  const setHas = (place: string, expected: string): boolean => [...(ofSet().get(place) ?? [])].some((said) => sameKind(said, expected));
  // What removing the entry alone breaks: its problems `set` alone does not have.
  const problemsWithout = (entry: number): ProblemsByPlace => {
    let found = alone.get(entry);
    if (!found) {
      const removed = without(entry);
      found = problemsByPlace(removed.build, refsDir, removed.before);
      for (const [place, said] of found) {
        for (const one of said) if (setHas(place, one)) said.delete(one);
        if (!said.size) found.delete(place);
      }
      alone.set(entry, found);
    }
    return found;
  };
  return (path, expected) => {
    if (!entries.length) return undefined;
    const place = formatPath(before(path));
    if (setHas(place, expected)) return undefined;
    if (entries.length === 1) return entries[0];
    return (
      entries.find((entry) => problemsWithout(entry).get(place)?.has(expected)) ??
      entries.find((entry) => problemsWithout(entry).has(place)) ??
      entries.find((entry) => problemsWithout(entry).size > 0) ??
      entries[0]
    );
  };
}

/**
 * Whether two problems at one place are of one kind: the same words up to the first `:`, `;` or
 * `(` outside quotes, quoted names aside (`unknown tool "x"; did you mean ...` whatever it lists,
 * but not `component "a" has no router` and `component "a" is never reached`).
 */
export function sameKind(one: string, other: string): boolean {
  const kind = (said: string) =>
    said
      .replace(/"(?:[^"\\]|\\.)*"/g, '""')
      .split(/[:;(]/)[0]
      .trim();
  return kind(one) === kind(other);
}

/**
 * The problems validateBuild finds in a build (its skill refs relative to `refsDir`), by their
 * paths before any removal (none for a valid build).
 */
export function problemsByPlace(build: unknown, refsDir: string, before: PathBeforeRemoval): ProblemsByPlace {
  const found: ProblemsByPlace = new Map();
  const record: Locator = (path, expected) => {
    const place = formatPath(before(path));
    found.set(place, (found.get(place) ?? new Set()).add(expected));
    return new ConfigError({ file: '<delta>' }, expected);
  };
  try {
    validateBuild(build, record, refsDir);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
  }
  return found;
}
