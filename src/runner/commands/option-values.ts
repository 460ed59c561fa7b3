import { InvalidArgumentError } from 'commander';
import { emptyTextProblem } from '../../config/empty-values.js';
import { MAX_SHARDS } from '../ci/max-shards.js';
import { MAX_TIMEOUT_MS } from '../suite/timeouts.js';

/* Parsers of the CLI's option values (commander's argParser): each refuses what it cannot read, naming what it expected. */

/**
 * Repeatable flag values, each possibly a comma list: `--variant a --variant b,c`. An empty value
 * (`--variant "$UNSET"` in CI) is refused: it would otherwise select everything.
 */
export function collectList(value: string, previous: string[] | undefined): string[] {
  return collectItems(value, previous, 'a name or a comma list of names');
}

/** collectList for a flag that takes folders (`--overlay a,b`): an empty item is refused naming folders. */
export function collectFolders(value: string, previous: string[] | undefined): string[] {
  return collectItems(value, previous, 'a folder or a comma list of folders');
}

function collectItems(value: string, previous: string[] | undefined, expected: string): string[] {
  const items = value.split(',').map((item) => item.trim());
  if (items.some((item) => item === '')) throw new InvalidArgumentError(`expected ${expected}, got ${JSON.stringify(value)} (an empty item)`);
  return [...(previous ?? []), ...items];
}

/**
 * A repeatable comma list kept as one (`--reporter json --reporter md` is `json,md`): a flag
 * appended to a CI line adds to the list instead of replacing it. The names are checked where
 * they are used, so an empty item still gets its own message.
 */
export function appendList(value: string, previous: string | undefined): string {
  return previous === undefined ? value : `${previous},${value}`;
}

/** Repeatable error tokens, each kept whole (a token may hold a comma); an empty one is refused. */
export function collectTokens(value: string, previous: string[] | undefined): string[] {
  if (value === '') throw new InvalidArgumentError('expected the text of an error token, got an empty value');
  return [...(previous ?? []), value];
}

/** A time limit Node's timers can hold (larger ones would fire at once). */
export function timeoutMs(value: string): number {
  const parsed = Number(value);
  if (!DIGITS.test(value) || parsed < 1 || parsed > MAX_TIMEOUT_MS) throw new InvalidArgumentError(`expected a whole number of ms from 1 to ${MAX_TIMEOUT_MS}`);
  return parsed;
}

/**
 * A file, folder, URL or pattern flag: an empty value (`--out "$OUT"` with the variable unset) is
 * refused, never read as the current folder or as no filter.
 */
export function nonEmpty(value: string): string {
  const problem = emptyTextProblem(value);
  if (problem) throw new InvalidArgumentError(problem);
  return value;
}

/**
 * A file or folder argument: an empty one (`agentcheck run "$SUITE_DIR"` with the variable unset)
 * is refused as an empty flag value is, never read as the current folder.
 */
export function pathArgument(expected: string): (value: string) => string {
  return (value) => {
    if (value.trim() === '') throw new InvalidArgumentError(`expected ${expected}, got an empty string (an unset variable?)`);
    return value;
  };
}

/** Several path arguments (`run a b`), each checked as pathArgument does, kept in order. */
export function pathArguments(expected: string): (value: string, previous: string[] | undefined) => string[] {
  const check = pathArgument(expected);
  return (value, previous) => {
    const paths = previous ?? [];
    paths.push(check(value));
    return paths;
  };
}

/**
 * Decimal digits only: Number() would also read `1e3`, `0x2` and `2.` as whole numbers. Spaces
 * around them are allowed, for every number flag and --shard alike (docs/cli.md).
 */
const DIGITS = /^\s*\d+\s*$/;

export function positiveInt(value: string): number {
  const parsed = Number(value);
  if (!DIGITS.test(value) || !Number.isSafeInteger(parsed) || parsed < 1) throw new InvalidArgumentError('expected a whole number >= 1');
  return parsed;
}

export function wholeNumber(value: string): number {
  const parsed = Number(value);
  if (!DIGITS.test(value) || !Number.isSafeInteger(parsed)) throw new InvalidArgumentError('expected a whole number >= 0');
  return parsed;
}

/** `I/N`; surrounding spaces are allowed, as for the number flags (a CI variable with a stray space). */
export function shardSpec(value: string): { index: number; total: number } {
  const match = /^\s*(\d+)\/(\d+)\s*$/.exec(value);
  const index = Number(match?.[1]);
  const total = Number(match?.[2]);
  if (!match || total < 1 || index < 1 || index > total || total > MAX_SHARDS)
    throw new InvalidArgumentError(`expected I/N with 1 <= I <= N <= ${MAX_SHARDS}, e.g. 2/4`);
  return { index, total };
}
