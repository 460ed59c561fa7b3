import { ConfigError, type SourceLocation } from './errors.js';

/*
 * Empty selection values (`grep: process.env.GREP ?? ''`, `tags: []`, `tags: ['']`): each is
 * refused, never read as "no filter" (runs everything) or a filter that selects nothing; the CLI's
 * flag parsers and the library's selection options share these checks (docs/cli.md, docs/vitest.md).
 */

/** The problem with an empty or blank text value, or null when it holds something. */
export function emptyTextProblem(value: string): string | null {
  return value.trim() === '' ? 'expected a value, got an empty string' : null;
}

/** The problem with an empty list, or with a blank item in it (named by index), or null. */
export function emptyListProblem(values: readonly string[], what: string): string | null {
  if (!values.length) return `expected a non-empty list of ${what}, got []`;
  const index = values.findIndex((value) => value.trim() === '');
  return index < 0 ? null : `expected a non-empty list of ${what}, got an empty string at index ${index}`;
}

/**
 * Refuses an empty or blank path (`config: process.env.CONFIG ?? ''`), which every path API would
 * read as the current folder or as "not given": a located ConfigError at `location` (`expected
 * a folder path, got an empty string`, `what` being "a folder path").
 */
export function refuseEmptyPath(value: unknown, what: string, location: SourceLocation): void {
  if (typeof value === 'string' && value.trim() === '') throw new ConfigError(location, `expected ${what}, got an empty string`);
}
