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
  const numbers = doc.keptNumberProblems;
  if (!doc.keptProblems().length) return load(doc);
  const found: ConfigError[] = [];
  collectConfigErrors(found, () => {
    load(doc);
  });
  const places = new Set(numbers.map(spot));
  const madeUp = doc.madeUpKeys.map((path) => formatPath(path));
  const underMadeUp = (problem: ConfigError) =>
    problem.file === doc.file && madeUp.some((path) => problem.path === path || problem.path?.startsWith(`${path}.`) || problem.path?.startsWith(`${path}[`));
  const kept = found.filter((problem) => !places.has(spot(problem)) && !underMadeUp(problem));
  throwConfigErrors([...adviseStrings(doc, numbers, load), ...doc.keptDuplicateKeys, ...doc.keptComplexKeys, ...doc.keptMergeKeys, ...kept]);
  throw new Error('unreachable: kept problems are thrown');
}

/**
 * The number problems, each integer beyond 2^53 told to be written as a string only where the
 * loader accepts a string in its place (an id, free-form data), not where it takes a count.
 */
function adviseStrings<T>(doc: SourceDocument, numbers: readonly ConfigError[], load: (doc: SourceDocument) => T): ConfigError[] {
  if (!numbers.some((problem) => isRoundedNumber(problem.expected))) return [...numbers];
  const refused: ConfigError[] = [];
  try {
    collectConfigErrors(refused, () => {
      load(doc.withValue(largeIntegersAsStrings(doc.value)));
    });
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
