import { memoryLocator } from '../../config/assert-format.js';
import { unknownKeyMessage } from '../../config/option-keys.js';
import { ConfigError, throwConfigErrors } from '../../config/errors.js';
import { describeValue } from '../../config/describe-value.js';
import { emptyListProblem, emptyTextProblem } from '../../config/empty-values.js';
import { MAX_SHARDS } from '../ci/max-shards.js';

const WHERE = 'loadSuite';

type FieldCheck = (value: unknown) => string | null;

const strings =
  (what: string): FieldCheck =>
  (value) =>
    Array.isArray(value) && value.every((item) => typeof item === 'string') ? null : `expected ${what} (a list of strings), got ${describeValue(value)}`;
const wholeNumber =
  (min: number): FieldCheck =>
  (value) =>
    Number.isInteger(value) && (value as number) >= min ? null : `expected a whole number >= ${min}, got ${describeValue(value)}`;

const FIELDS: Record<string, FieldCheck> = {
  // An empty path (an unset variable) is refused, never read as the current folder (docs/cli.md).
  paths: (value) => strings('scenario files or folders')(value) ?? emptyPath(value as string[], 'scenario files or folders'),
  files: (value) => (Array.isArray(value) ? null : `expected found scenario files, got ${describeValue(value)}`),
  config: (value) => (typeof value === 'object' && value !== null ? null : `expected a suite config (loadSuiteConfig), got ${describeValue(value)}`),
  // An empty value (an unset variable) is refused, as `run --variant ""` is, never read as "all" or "none".
  variants: (value) => strings('variant names')(value) ?? emptyListProblem(value as string[], 'variant names'),
  repeat: wholeNumber(1),
  grep: (value) => (typeof value === 'string' ? emptyTextProblem(value) : `expected a text or regular expression (a string), got ${describeValue(value)}`),
  tags: (value) => strings('tags')(value) ?? emptyListProblem(value as string[], 'tags'),
  overlay: (value) => strings('skill folders')(value) ?? emptyPath(value as string[], 'skill folders'),
  only: (value) => (value instanceof Map ? null : `expected a Map of scenario id -> variant names, got ${describeValue(value)}`),
  shownId: (value) => (typeof value === 'function' ? null : `expected a function (id) => the id as reports show it, got ${describeValue(value)}`),
  shard: (value) => {
    const shard = value as { index?: unknown; total?: unknown } | null;
    const ok =
      typeof shard === 'object' &&
      shard !== null &&
      // An extra key (`{index, total, count}`) is a misspelling, never ignored.
      Object.keys(shard).every((key) => key === 'index' || key === 'total') &&
      Number.isInteger(shard.total) &&
      Number.isInteger(shard.index) &&
      (shard.index as number) >= 1 &&
      (shard.index as number) <= (shard.total as number) &&
      (shard.total as number) <= MAX_SHARDS;
    return ok ? null : `expected {index, total} with 1 <= index <= total <= ${MAX_SHARDS}, got ${describeValue(value)}`;
  },
  maxRuns: wholeNumber(1),
  planRuns: (value) => (typeof value === 'boolean' ? null : `expected true or false, got ${describeValue(value)}`),
  variantFailures: (value) => (value instanceof Set ? null : `expected a Set, got ${describeValue(value)}`),
  variantProblems: (value) => (Array.isArray(value) ? null : `expected an array, got ${describeValue(value)}`),
  loadedBuilds: (value) => (value instanceof Set ? null : `expected a Set, got ${describeValue(value)}`),
};

function emptyPath(paths: readonly string[], what: string): string | null {
  const index = paths.findIndex((path) => path.trim() === '');
  return index < 0 ? null : `expected ${what}, got an empty string at index ${index}`;
}

/**
 * Checks what a library caller gives loadSuite, as the CLI checks its flags: every wrong field in
 * one ConfigError (`loadSuite at repeat: expected a whole number >= 1, got number 0`), never a
 * TypeError or a string `paths` read one character at a time.
 */
export function checkSuiteSelection(selection: unknown): void {
  if (typeof selection !== 'object' || selection === null || Array.isArray(selection)) {
    throw new ConfigError({ file: WHERE }, `expected a selection {paths, config?, variants?, repeat?, grep?, tags?, shard?}, got ${describeValue(selection)}`);
  }
  const given = selection as Record<string, unknown>;
  const locate = memoryLocator(WHERE);
  const problems: ConfigError[] = [];
  for (const key of Object.keys(given)) {
    if (!Object.hasOwn(FIELDS, key)) problems.push(locate([key], unknownKeyMessage(key, Object.keys(FIELDS))));
  }
  if (given.paths === undefined && given.files === undefined)
    problems.push(new ConfigError({ file: WHERE }, 'missing required key "paths" (an empty list runs the config\'s scenarios)'));
  for (const [key, check] of Object.entries(FIELDS)) {
    const problem = given[key] === undefined ? null : check(given[key]);
    if (problem) problems.push(locate([key], problem));
  }
  throwConfigErrors(problems);
}
