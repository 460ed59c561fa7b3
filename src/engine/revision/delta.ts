import { quoteCapped, shownNames } from '../../config/cap-text.js';
import { dirname } from 'node:path';
import type { Locator, ShownPathLocator } from '../../config/assert-format.js';
import { hashValue } from '../../config/canonical-json.js';
import { collectConfigErrors, ConfigError, throwConfigErrors } from '../../config/errors.js';
import { formatPath, SourceDocument, SourceView, type PathSegments, type ShownPath } from '../../config/source.js';
import { absolutizeSkillRefs } from './skill-refs.js';
import { assertRevision } from './assert-revision.js';
import type { AgentBuild, Delta, Revision } from './types.js';
import { validateBuild } from './validate-build.js';
import { removalBlame } from './delta-blame.js';
import { distinctTargets, removeTargets, type PathBeforeRemoval, type RemovalTarget } from './delta-remove.js';
import { setEntryBlame } from './delta-set-blame.js';
import { checkExternalCommandFiles } from './external-command-files.js';
import { isIndexText, isPathKey, parseDeltaPath, setEntryPath, type Segment } from './delta-path.js';
import { deltaOwnProblems } from './delta-own-problems.js';
import { partialLlmProblem } from './partial-llm.js';
import { chainDeltaHash } from './delta-hash.js';
import { closingCall, placeInSet, type SetWrite } from './delta-set-writes.js';
import { cycleToolNames, type CycleLocator } from './composite-cycles.js';

/** The delta format (docs/formats.md, Delta). */
export const deltaSchema = {
  $id: 'agentcheck:delta',
  type: 'object',
  additionalProperties: false,
  properties: {
    set: { type: 'object' },
    remove: { type: 'array', items: { type: 'string', minLength: 1 } },
  },
};

/** A revision with a delta applied: what a test_run or a variant actually runs. */
export interface DeltaRevision extends Revision {
  /** sha256 of the delta's canonical JSON, or null when no delta was applied or it changed nothing. */
  deltaHash: string | null;
  /** The deltas applied, in order (an http external engine is sent them; docs/external-agents.md). */
  deltas?: Delta[];
  /**
   * The build before the first of `deltas`, which an http external engine is sent them merged
   * against (merged-delta.ts). Not saved in a checkpoint: an external run never pauses.
   */
  base?: AgentBuild;
}

/**
 * Applies `{set, remove}` to a deep copy of a revision (docs/formats.md, Delta); the original and
 * its file are never touched. The result is validated like a file, with errors naming the
 * delta as their source.
 */
export function applyDelta(revision: Revision, delta: unknown, source: DeltaSource = '<delta>'): DeltaRevision {
  assertRevision(revision, 'applyDelta');
  const { doc, ownLocator } = deltaPlace(delta, source);
  // Its format and `__proto__` keys first, every one; a delta whose only problem is a `__proto__`
  // key is still applied without it, so its other problems are reported beside it.
  // The syntax of its paths too: with a format problem the delta is not applied, and they are
  // still said (applied, a path's syntax problem is found again, and said once).
  const ownProblems = deltaOwnProblems(delta, ownLocator, deltaSchema, true);
  if (!ownProblems.set) {
    throwConfigErrors(ownProblems.problems);
    throw new Error('unreachable: a delta that cannot be applied has a problem');
  }
  const { remove } = delta as Delta;
  const set = ownProblems.set.value;
  // A spread copy has an object type, so it is a Record; `set` and `remove` address it by key.
  const copyWithSet = (problems: ConfigError[], writes: SetWrite[] = []): Record<string, unknown> => {
    const copy: Record<string, unknown> = { ...structuredClone(revision.build) };
    if (set) applySet(copy, set, ownLocator, problems, writes);
    return copy;
  };

  // Every path of `set` and `remove` is tried, and the merged build checked as far as they applied:
  // one pass reports every problem of the delta (docs/cli.md, validate).
  const problems: ConfigError[] = [...ownProblems.problems];
  const writes: SetWrite[] = [];
  const build = copyWithSet(problems, writes);

  const removed: number[] = [];
  let before: PathBeforeRemoval = (path) => path;
  if (remove) {
    const targets = remove.flatMap((path, index) => {
      let target: { index: number; parent: unknown; key: string | number } | undefined;
      collectConfigErrors(problems, () => {
        target = { index, ...resolvePath(build, path, (message) => ownLocator(['remove', index], message)) };
      });
      return target ? [target] : [];
    });
    // Two paths naming one item would otherwise remove it and then its neighbour.
    targets.forEach((target, i) => {
      const first = targets.findIndex((other) => other.parent === target.parent && other.key === target.key);
      if (first < i)
        problems.push(
          ownLocator(
            ['remove', target.index],
            `${quoteCapped(remove[target.index])} names the same item as remove[${targets[first].index}] (${quoteCapped(remove[targets[first].index])})`,
          ),
        );
    });
    const unique = distinctTargets(targets);
    before = removeTargets(build, unique);
    removed.push(...unique.map((target) => target.index));
  }

  const base = doc instanceof SourceView ? doc.base : [];
  const mergedLocator: Locator = (path, expected) => {
    // A value the delta set is named where it sits in the file (`variants.lean.set.agent.max_turns`,
    // `set.agent.tools[name=lookup].permision` under a path key); a problem elsewhere in the merged
    // build (left by a removal, say) by its path in the build. `set` wrote before the removals, so
    // its entries are matched where the element sat then: a removal shifts the tools after it.
    // One no entry wrote, that no one entry made, is `set`'s as a whole: at `set`, saying where the
    // build broke, never the build's path at the line of a `set` entry that did not write it.
    const written = placeInSet(writes, before(path));
    if (!written && set) return entryError(['set'], 'set as a whole', path, expected);
    const shown = written ? [...base, ...written] : path;
    const pos = written ? doc.locate(written) : {};
    return new ConfigError({ file: doc.file, ...pos, path: formatPath(shown) || undefined }, `after applying the delta: ${expected}`, 'DELTA_INVALID');
  };
  // A problem an entry made where it did not write is located at that entry, saying where the build
  // broke: `removing "agent.name" leaves agent invalid: ...`.
  function entryError(entry: ShownPath, change: string, path: PathSegments, expected: string): ConfigError {
    return new ConfigError(
      { file: doc.file, ...doc.locate(entry), path: formatPath([...base, ...entry]) },
      `after applying the delta: ${change} leaves ${formatPath(path) || 'the build'} invalid: ${expected}`,
      'DELTA_INVALID',
    );
  }
  // New skill refs in the delta are relative to the delta file (or the working folder); the
  // build's own refs are absolute already.
  const refsDir = typeof source === 'string' ? process.cwd() : dirname(doc.file);
  // A problem a removal made is located at its `remove` entry; one `set` made where no entry wrote
  // (a component a new entry point leaves unreached) at the entry whose leaving out leaves that
  // place without it. The builds they are told by are made only when a problem has to be blamed: the
  // error path. Problems at a place `set` wrote were reported with the build's.
  const afterSet = () => copyWithSet([]);
  const blame = removalBlame(set ? afterSet : undefined, removed, refsDir, before, (entry) => {
    const copy = afterSet();
    const beforeAlone = removeTargets(copy, [resolvePath(copy, remove?.[entry] ?? '', (message) => ownLocator(['remove', entry], message))]);
    return { build: copy, before: beforeAlone };
  });
  const setBlame = setEntryBlame(Object.keys(set ?? {}), refsDir, before, (key) => buildWithout(revision.build, set ?? {}, key, remove ?? []));
  const buildLocator: Locator = (path, given) => {
    const expected = partialLlmProblem(revision.build, path, given) ?? given;
    const entry = blame(path, given);
    if (entry !== undefined) return entryError(['remove', entry], `removing ${quoteCapped(String(remove?.[entry]))}`, path, expected);
    const key = set && !placeInSet(writes, before(path)) ? setBlame(path, given) : undefined;
    return key === undefined ? mergedLocator(path, expected) : entryError(setEntryPath(key), `setting ${quoteCapped(key)}`, path, expected);
  };
  // A cycle the delta closed is named at the `set` entry that wrote its closing call (or renamed a
  // tool into a call's reach), as its other problems are, also beside a removal the build needed to
  // be otherwise valid: a removal adds no call. One `set` did not write is blamed as any problem is.
  const cycleLocator: CycleLocator = (calls, expected) => {
    const sites = [...calls, ...cycleToolNames(calls)];
    const closing = closingCall(writes, sites.map(before));
    return closing === undefined ? buildLocator(calls[0], expected) : mergedLocator(sites[closing], expected);
  };
  collectConfigErrors(problems, () => validateBuild(build, buildLocator, refsDir, undefined, cycleLocator));
  throwConfigErrors(problems);
  // validateBuild passed (else its problems were thrown just above): the build is an AgentBuild.
  const typed = build as unknown as AgentBuild;
  absolutizeSkillRefs(typed, refsDir);
  // A command's ./ paths stay relative to the build file, wherever the delta was written.
  checkExternalCommandFiles(typed, dirname(revision.source), mergedLocator);
  // Deltas applied in turn (a variant, then a scenario's) hash together. One that changes nothing
  // (`{}`, `{set: {}, remove: []}`, values the build already has) has no hash, however spelt.
  const changed = hashValue(typed) !== hashValue(revision.build);
  const previous = 'deltaHash' in revision ? (revision as DeltaRevision).deltaHash : null;
  const deltaHash = changed ? chainDeltaHash(previous, delta) : previous;
  const deltas = [...((revision as Partial<DeltaRevision>).deltas ?? []), ...(changed ? [structuredClone(delta as Delta)] : [])];
  const firstBuild = (revision as Partial<DeltaRevision>).base ?? revision.build;
  return { build: typed, source: revision.source, hash: revision.hash, deltaHash, ...(deltas.length ? { deltas, base: firstBuild } : {}) };
}

/**
 * Applies a delta's `set` to `build` in place; a path that does not resolve goes to `problems`.
 * Each entry applied is added to `writes`, in order, so a problem of the merged build can be
 * named where the delta wrote it.
 */
function applySet(
  build: Record<string, unknown>,
  set: Record<string, unknown>,
  ownLocator: ShownPathLocator,
  problems: ConfigError[],
  writes: SetWrite[],
): void {
  for (const [key, value] of Object.entries(set)) {
    if (isPathKey(key)) {
      // A top-level key with dots or selectors addresses one place: `agent.tools[name=x].description`.
      collectConfigErrors(problems, () => {
        const { parent, key: last, path } = resolvePath(build, key, (message) => ownLocator(setEntryPath(key), message, true));
        const current = (parent as Record<string | number, unknown>)[last];
        (parent as Record<string | number, unknown>)[last] =
          isPlainObject(current) && isPlainObject(value) ? deepMerge(current, value) : structuredClone(value);
        writes.push({ key, buildPath: path, value });
      });
    } else {
      build[key] = isPlainObject(build[key]) && isPlainObject(value) ? deepMerge(build[key], value) : structuredClone(value);
      writes.push({ key, buildPath: [key], value });
    }
  }
}

/**
 * The build a delta makes with one `set` entry left out, every other entry and every removal
 * applied (paths that no longer resolve are skipped), and where its elements sat before the removals.
 */
function buildWithout(
  original: unknown,
  set: Record<string, unknown>,
  key: string,
  remove: readonly string[],
): { build: Record<string, unknown>; before: PathBeforeRemoval } {
  const build: Record<string, unknown> = { ...structuredClone(original as Record<string, unknown>) };
  const quiet: ShownPathLocator = (_path, expected) => new ConfigError({ file: '<delta>' }, expected);
  applySet(build, Object.fromEntries(Object.entries(set).filter(([other]) => other !== key)), quiet, [], []);
  const targets = remove.flatMap((path) => {
    const found: RemovalTarget[] = [];
    collectConfigErrors([], () => found.push(resolvePath(build, path, (message) => quiet([], message))));
    return found;
  });
  return { build, before: removeTargets(build, distinctTargets(targets)) };
}

/** Where a delta is written: its file, its place in a file, or a name for one built in memory. */
type DeltaSource = SourceDocument | SourceView | string;

/**
 * A delta's own problems, found without a build: its format and the syntax of its paths, so a
 * scenario whose build cannot be loaded still hears of them (docs/cli.md, validate).
 */
export function checkDeltaAlone(delta: unknown, source: DeltaSource = '<delta>'): void {
  const { ownLocator } = deltaPlace(delta, source);
  throwConfigErrors(deltaOwnProblems(delta, ownLocator, deltaSchema, true).problems);
}

function deltaPlace(delta: unknown, source: DeltaSource): { doc: SourceDocument | SourceView; ownLocator: ShownPathLocator } {
  const doc = typeof source === 'string' ? SourceDocument.fromValue(source, delta) : source;
  return { doc, ownLocator: (path, expected, atKey) => doc.error(path, expected, 'DELTA_INVALID', atKey) };
}

/** Deep merge for `set`: objects merge, scalars and arrays replace. */
export function deepMerge(target: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...target };
  for (const [key, value] of Object.entries(patch)) {
    const existing = out[key];
    out[key] = isPlainObject(existing) && isPlainObject(value) ? deepMerge(existing, value) : structuredClone(value);
  }
  return out;
}

interface ResolvedPath {
  parent: unknown;
  key: string | number;
  /** Every segment from the root, indices as numbers: `agent.tools[name=x]` -> ['agent', 'tools', 2]. */
  path: Array<string | number>;
}

/**
 * Resolves a dotted path with selectors (`agent.tools.3`, `agent.tools[name=x]`, `a.b[2].c`)
 * to the container and key of its last segment. Every step must exist.
 */
export function resolvePath(root: unknown, path: string, fail: (message: string) => ConfigError): ResolvedPath {
  const segments = parseDeltaPath(path, fail);
  let current: unknown = root;
  const walked: Array<string | number> = [];
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    const key = selectKey(current, segment, walked, path, fail);
    if (i === segments.length - 1) return { parent: current, key, path: [...walked, key] };
    current = (current as Record<string | number, unknown>)[key];
    walked.push(key);
  }
  throw fail(`path ${quoteCapped(path)} is empty`);
}

function selectKey(current: unknown, segment: Segment, walked: PathSegments, path: string, fail: (message: string) => ConfigError): string | number {
  const where = formatPath(walked) || '<root>';
  // A dotted number addresses a list item (`agent.tools.3`); on an object it is a key.
  if (segment.kind === 'key' && Array.isArray(current)) {
    if (!isIndexText(segment.key)) throw fail(`path ${quoteCapped(path)} does not exist: ${where} is a list, ${quoteCapped(segment.key)} is not an index`);
    return selectKey(current, { kind: 'index', index: Number(segment.key) }, walked, path, fail);
  }
  if (segment.kind === 'key') {
    // Own keys only: `constructor` or `toString` would otherwise be found on every object.
    if (!isPlainObject(current) || !Object.hasOwn(current, segment.key)) {
      throw fail(`path ${quoteCapped(path)} does not exist: ${where} has no key ${quoteCapped(segment.key)}`);
    }
    return segment.key;
  }
  if (!Array.isArray(current)) throw fail(`path ${quoteCapped(path)} does not exist: ${where} is not a list`);
  if (segment.kind === 'index') {
    if (segment.index >= current.length) {
      throw fail(`path ${quoteCapped(path)} does not exist: ${where} has ${current.length} item(s), no index ${segment.index}`);
    }
    return segment.index;
  }
  const index = current.findIndex((item) => isPlainObject(item) && item.name === segment.name);
  if (index < 0) {
    const names = current.flatMap((item) => (isPlainObject(item) && typeof item.name === 'string' ? [item.name] : []));
    if (!current.length) throw fail(`path ${quoteCapped(path)} does not exist: ${where} is an empty list`);
    if (!names.length) {
      // Routers, a toolset's names, skills given by ref: the selector has nothing to read.
      throw fail(`path ${quoteCapped(path)} does not exist: the items of ${where} have no "name" key to select by; address an item by its index (${where}.0)`);
    }
    const unnamed = current.length - names.length;
    const others = unnamed ? `; ${unnamed} item(s) without a name, addressed by index` : '';
    throw fail(`path ${quoteCapped(path)} does not exist: no item named ${quoteCapped(segment.name)} in ${where} (names: ${shownNames(names)}${others})`);
  }
  return index;
}

/** Whether a value is an object a delta's `set` deep-merges into (not a list, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
