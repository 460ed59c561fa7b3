import { abortSignalProblem } from '../config/abort-signal-problem.js';
import { describeValue } from '../config/describe-value.js';
import { ConfigError, throwConfigErrors } from '../config/errors.js';
import { unknownOptionKeys } from '../config/option-keys.js';
import { MAX_TIMER_MS } from '../config/timer-limit.js';

/** What a value of each option must be, when given (the selection's own rules follow in load-scenarios.ts). */
const VALUE_CHECKS: Record<string, (value: unknown) => string | null> = {
  cwd: (value) => (typeof value === 'string' ? null : `expected a folder path, got ${describeValue(value)}`),
  config: (value) => (typeof value === 'string' ? null : `expected a file path, got ${describeValue(value)}`),
  grep: (value) =>
    typeof value === 'string'
      ? null
      : `expected a text to select scenario names with, as --grep takes it (contained, or a regular expression such as '^refund'), got ${describeValue(value)}`,
  tags: (value) =>
    Array.isArray(value) && value.every((tag) => typeof tag === 'string') ? null : `expected a list of tags (strings), got ${describeValue(value)}`,
  timeout: (value) =>
    Number.isSafeInteger(value) && (value as number) >= 1 && (value as number) <= MAX_TIMER_MS
      ? null
      : `expected a whole number of ms from 1 to ${MAX_TIMER_MS}, got ${describeValue(value)}`,
  concurrent: (value) => (typeof value === 'boolean' ? null : `expected true or false, got ${describeValue(value)}`),
  variant: (value) => (typeof value === 'string' ? null : `expected a variant name, got ${describeValue(value)}`),
  signal: abortSignalProblem,
};

/**
 * The options of an agentcheck/vitest entry (`scenarios() options`): an object, with no key
 * the entry does not take and each given value of its type, every problem in one ConfigError
 * named by the option; never a TypeError or a value ignored for its default (docs/vitest.md).
 */
export function checkEntryOptions(options: unknown, keys: readonly string[], label: string): void {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new ConfigError({ file: label }, `expected an options object, got ${describeValue(options)}`);
  }
  const given = options as Record<string, unknown>;
  const problems = unknownOptionKeys(given, keys, label);
  for (const key of keys) {
    const problem = given[key] === undefined ? null : (VALUE_CHECKS[key]?.(given[key]) ?? null);
    if (problem) problems.push(new ConfigError({ file: label, path: key }, problem));
  }
  throwConfigErrors(problems);
}
