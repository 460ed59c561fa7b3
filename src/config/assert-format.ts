import { ConfigError, throwConfigErrors } from './errors.js';
import { compileFormatSchema } from './json-schema.js';
import { reduceSchemaErrors } from './reduce-schema-errors.js';
import { type SchemaProblem, valueAt } from './schema-problem.js';
import { formatPath, type PathSegments, type ShownPath, type SourceDocument } from './source.js';

/** Builds a located ConfigError for a path relative to some value being validated. */
export type Locator = (path: PathSegments, expected: string, atKey?: boolean) => ConfigError;

/** A Locator that also takes a delta's `set` key as a PathKey (formatPath writes it as the path it is). */
export type ShownPathLocator = (path: ShownPath, expected: string, atKey?: boolean) => ConfigError;

/** A locator for values found at `base` inside `doc`. */
export function documentLocator(doc: SourceDocument, base: PathSegments = []): ShownPathLocator {
  return (path, expected, atKey = false) => doc.error([...base, ...path], expected, 'CONFIG_INVALID', atKey);
}

/** What a format check found: every problem, located, and which parts of the value they leave intact. */
export interface FormatCheck<T = unknown> {
  /** The value checked, as `T`: all of it when there are no errors, else the parts `valid`/`typed` vouch for. */
  value: T;
  /** One located ConfigError per problem; empty when the value matches the schema. */
  errors: ConfigError[];
  /** No problem at, inside or above `path`: the value there is as the schema says. */
  valid(path: PathSegments): boolean;
  /** No problem at or above `path`: the value there has the schema's type, whatever its parts hold. */
  typed(path: PathSegments): boolean;
  /**
   * `path` names an absent key that an unknown key beside it misspells (`descripton` for
   * `description`): the typo, with its "did you mean", is the one problem, so a rule requiring
   * the key says nothing. Such a key is neither valid nor typed either.
   */
  misspelt(path: PathSegments): boolean;
  /**
   * As `valid`, but an unknown key that misspells no absent key (`foo: 1`) does not count: a rule
   * can still check the rest of the value beside it (docs/cli.md, validate).
   */
  validBesideUnknownKeys(path: PathSegments): boolean;
  /** `errors` without those at the paths `leave` names (problems a later rule says itself). */
  errorsExcept(leave: (path: PathSegments) => boolean): ConfigError[];
}

/**
 * Validates `value` against one of agentcheck's format schemas and reports every problem
 * (reduceSchemaErrors), so callers can go on checking the parts the problems leave intact.
 */
export function checkFormat<T = unknown>(schema: object, value: unknown, locate: Locator): FormatCheck<T> {
  const validate = compileFormatSchema<T>(schema);
  if (validate(value)) {
    return {
      value,
      errors: [],
      valid: () => true,
      typed: () => true,
      misspelt: () => false,
      validBesideUnknownKeys: () => true,
      errorsExcept: () => [],
    };
  }
  const problems = reduceSchemaErrors(validate.errors ?? [], value);
  // Paths as keys, so asking about a part costs its depth, not the number of problems.
  const key = (path: PathSegments) => JSON.stringify(path);
  const misspelt = new Set(
    problems.flatMap((problem) => (problem.misspells !== undefined && valueAt(value, problem.misspells) === undefined ? [key(problem.misspells)] : [])),
  );
  // An unknown key that stands for no absent key leaves the rest of its object readable.
  const isPlain = (problem: SchemaProblem) => problem.unknownKey === true && (problem.misspells === undefined || !misspelt.has(key(problem.misspells)));
  const soundness = (counted: SchemaProblem[]) => {
    const subjects = new Set([...counted.map((problem) => key(problem.subject)), ...misspelt]);
    const insideSubjects = new Set(counted.flatMap((problem) => problem.subject.map((_segment, end) => key(problem.subject.slice(0, end)))));
    const typed = (path: PathSegments) => !path.some((_segment, end) => subjects.has(key(path.slice(0, end)))) && !subjects.has(key(path));
    return { typed, valid: (path: PathSegments) => typed(path) && !insideSubjects.has(key(path)) };
  };
  const all = soundness(problems);
  const besideUnknownKeys = soundness(problems.filter((problem) => !isPlain(problem)));
  const located = problems.map((problem) => ({ path: problem.path, error: locate(problem.path, problem.expected, problem.atKey) }));
  return {
    // Only as far as `valid` and `typed` say: callers read the parts with no problem.
    value: value as T,
    errors: located.map((problem) => problem.error),
    valid: all.valid,
    typed: all.typed,
    misspelt: (path) => misspelt.has(key(path)),
    validBesideUnknownKeys: besideUnknownKeys.valid,
    errorsExcept: (leave) => located.filter((problem) => !leave(problem.path)).map((problem) => problem.error),
  };
}

/**
 * Validates `value` against one of agentcheck's format schemas, throwing a located ConfigError
 * (ConfigErrors for several) with every violation; `T` is the type generated from the schema.
 */
export function assertFormat<T = unknown>(schema: object, value: unknown, locate: Locator): asserts value is T {
  throwConfigErrors(checkFormat(schema, value, locate).errors);
}

/** A locator that knows no lines: for values built in memory. */
export function memoryLocator(file: string, base: PathSegments = []): ShownPathLocator {
  return (path, expected) => {
    const full = [...base, ...path];
    return new ConfigError({ file, path: formatPath(full) || undefined }, expected);
  };
}
