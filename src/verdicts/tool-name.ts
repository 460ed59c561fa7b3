import type { Locator } from '../config/assert-format.js';
import type { PathSegments } from '../config/source.js';
import { fullToolName, hasServerPrefix, normalizeToolName } from '../spans/conventions.js';
import { compileSafeRegex, parseSlashRegex, regexProblem, testCapped } from '../spans/query-regex.js';

/**
 * Tests a tool's full name (a call's `raw_name`, an approval's `raw_tool`, a catalog's key):
 * given a name without its `mcp__<server>__` prefix, an expected name that has one never matches.
 */
export type ToolNameMatcher = (fullName: string) => boolean;

/**
 * Compiles an expected tool name (docs/verdicts.md, The test_run verdict): `/regex/flags` tests
 * the name without `execute_tool ` and `mcp__<server>__`; a literal with an `mcp__<server>__`
 * prefix names that server's tool only (the whole name after `execute_tool `); any other literal
 * is compared with the name after stripping both prefixes.
 */
export function toolNameMatcher(expected: string): ToolNameMatcher {
  let matcher = cache.get(expected);
  if (!matcher) cache.set(expected, (matcher = compileMatcher(expected)));
  return matcher;
}

// Scenarios repeat the same few names across thousands of runs: compile each once.
const cache = new Map<string, ToolNameMatcher>();

function compileMatcher(expected: string): ToolNameMatcher {
  const regex = parseSlashRegex(expected);
  if (regex) {
    const compiled = compileSafeRegex(regex.pattern, regex.flags);
    return (name) => testCapped(compiled, normalizeToolName(name));
  }
  // `mcp__b__write_note` is server b's tool: `mcp__a__write_note` has the same tool part but is another tool.
  if (hasServerPrefix(expected)) {
    const wanted = fullToolName(expected);
    return (name) => fullToolName(name) === wanted;
  }
  const wanted = normalizeToolName(expected);
  return (name) => normalizeToolName(name) === wanted;
}

/**
 * An expected tool name as a reason says it of the calls it matched: a `/regex/` names no tool, so
 * the names it matched follow it (`/^create_/ (create_refund)`); a literal as written.
 */
export function toolNameAsMatched(expected: string, calls: ReadonlyArray<{ name: string }>): string {
  if (!parseSlashRegex(expected)) return expected;
  return `${expected} (${[...new Set(calls.map((call) => call.name))].join(', ')})`;
}

/**
 * Whether two expected names are the same name: a literal with a server prefix by its full name,
 * another literal after normalizing, a `/regex/` as written (overlap is not reasoned about).
 */
export function sameToolName(a: string, b: string): boolean {
  return canonicalToolName(a) === canonicalToolName(b);
}

/**
 * An expected name as it is compared: a literal with a server prefix by its full name (without
 * `execute_tool `), another literal normalized, a `/regex/` as written.
 */
export function canonicalToolName(name: string): string {
  if (parseSlashRegex(name)) return name;
  return hasServerPrefix(name) ? fullToolName(name) : normalizeToolName(name);
}

/**
 * Whether every call the literal `b` names is also a call `a` names (`write_note` covers
 * `mcp__notes__write_note`, as it covers itself); false for a `/regex/` on either side.
 */
export function coversToolName(a: string, b: string): boolean {
  if (parseSlashRegex(a) || parseSlashRegex(b)) return false;
  return toolNameMatcher(a)(b);
}

/** Throws a located ConfigError when `value` is not a usable expected tool name. */
export function validateToolName(value: unknown, at: PathSegments, locate: Locator): void {
  if (typeof value !== 'string' || value === '') throw locate(at, 'expected a tool name or a /regex/');
  const regex = parseSlashRegex(value);
  if (!regex) return;
  const problem = regexProblem(regex.pattern, regex.flags);
  if (problem) throw locate(at, problem);
}
