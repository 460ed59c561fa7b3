import { collectConfigErrors, ConfigError, throwConfigErrors } from './errors.js';
import { formatPath } from './format-path.js';
import { isRoundedNumber, LARGE_ID_ADVICE, largeIntegersAsStrings } from './number-checks.js';
import type { SourceDocument } from './source.js';

/** Where a problem sits, to tell two problems of one place. */
const place = (problem: ConfigError) => `${problem.file}\0${problem.path}`;
/** The same, with its line and column: a problem at the key of an unreadable number (an unknown key) is not the number's. */
const spot = (problem: ConfigError) => `${place(problem)}\0${problem.line ?? ''}:${problem.column ?? ''}`;

/**
 * Loads a document read with `{problems: 'keep'}`, reporting its numbers that cannot be read as
 * written, its keys given twice, its lists or mappings used as keys and its merge keys (the
 * loader having seen them applied) beside what loading it
 * finds (docs/cli.md, validate: every problem of a file in one pass). A problem loading finds at
 * such a number (the rounded value's type), or at or under the string a complex key was read as
 * (an unknown key "a,b"), is left out: the number's or the key's own problem says it. A problem at
 * the number's key (`foo: 12345678901234567890`, an unknown key) is said beside the number's.
 */
export function withKeptProblems<T>(doc: SourceDocument, load: (doc: SourceDocument) => T): T {
  if (!doc.keptProblems().length) return load(doc);
  throwConfigErrors(keptAndLoaded(doc, (read) => loadingProblems(() => load(read))).problems);
  throw new Error('unreachable: kept problems are thrown');
}

/**
 * withKeptProblems for a loader that can return its value beside problems that leave it usable,
 * pushing them to `keep` (a suite config, whose suite is then checked in the same pass): the
 * document's kept problems join them when every problem is `usable`, else all are thrown.
 */
export function withKeptProblemsKeeping<T>(
  doc: SourceDocument,
  load: (doc: SourceDocument, keep: ConfigError[]) => T,
  keep: ConfigError[],
  usable: (problem: ConfigError) => boolean,
): T {
  if (!doc.keptProblems().length) return load(doc, keep);
  // A key read as a made-up string (a complex key) would be used as if written: never kept going.
  const { value, problems } = keptAndLoaded(doc, (read) => loadingProblems((into) => load(read, into)));
  if (value === undefined || doc.madeUpKeys.length || !problems.every(usable)) {
    throwConfigErrors(problems);
    throw new Error('unreachable: kept problems are thrown');
  }
  keep.push(...problems);
  return value.loaded;
}

/** What one load of a document gave: its value when it returned one, and every problem it found (thrown or kept). */
interface Loading<T> {
  value?: { loaded: T };
  problems: ConfigError[];
}

/** Runs `load`, collecting the problems it throws and those it keeps (pushes to the list it is given). */
function loadingProblems<T>(load: (keep: ConfigError[]) => T): Loading<T> {
  const problems: ConfigError[] = [];
  let value: { loaded: T } | undefined;
  collectConfigErrors(problems, () => {
    value = { loaded: load(problems) };
  });
  return { value, problems };
}

/** The document's kept problems, then those loading it found that they do not already say, in the order said. */
function keptAndLoaded<T>(doc: SourceDocument, load: (doc: SourceDocument) => Loading<T>): Loading<T> {
  const numbers = doc.keptNumberProblems;
  const { value, problems: found } = load(doc);
  const places = new Set(numbers.map(spot));
  const madeUp = doc.madeUpKeys.map((path) => formatPath(path));
  const underMadeUp = (problem: ConfigError) =>
    problem.file === doc.file && madeUp.some((path) => problem.path === path || problem.path?.startsWith(`${path}.`) || problem.path?.startsWith(`${path}[`));
  const kept = found.filter((problem) => !places.has(spot(problem)) && !underMadeUp(problem));
  const problems = [...adviseStrings(doc, numbers, load), ...doc.keptDuplicateKeys, ...doc.keptComplexKeys, ...doc.keptMergeKeys, ...kept];
  return { value, problems };
}

/**
 * The number problems, each integer beyond 2^53 told to be written as a string only where the
 * loader accepts a string in its place (an id, free-form data), not where it takes a count.
 */
function adviseStrings<T>(doc: SourceDocument, numbers: readonly ConfigError[], load: (doc: SourceDocument) => Loading<T>): ConfigError[] {
  if (!numbers.some((problem) => isRoundedNumber(problem.expected))) return [...numbers];
  let refused: ConfigError[];
  try {
    refused = load(doc.withValue(largeIntegersAsStrings(doc.value))).problems;
  } catch {
    // The loader failed otherwise on the strings: no advice rather than a guess.
    return [...numbers];
  }
  const refusedPlaces = new Set(refused.map(place));
  return numbers.map((problem) =>
    isRoundedNumber(problem.expected) && !refusedPlaces.has(place(problem))
      ? new ConfigError(
          { file: problem.file, line: problem.line, column: problem.column, path: problem.path },
          `${problem.expected}; ${LARGE_ID_ADVICE}`,
          problem.code,
        )
      : problem,
  );
}
