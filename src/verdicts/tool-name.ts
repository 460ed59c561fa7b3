import type { Locator } from '../config/assert-format.js';
import type { PathSegments } from '../config/source.js';
import { normalizeToolName } from '../spans/conventions.js';
import { compileSafeRegex, parseSlashRegex, regexProblem, testCapped } from '../spans/query-regex.js';

/** Tests a (normalized) tool name against an expected name. */
export type ToolNameMatcher = (name: string) => boolean;

/**
 * Compiles an expected tool name: `/regex/flags` tests the normalized name, anything else is
 * compared after stripping `execute_tool ` and `mcp__<server>__` (docs/verdicts.md, The test_run verdict).
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
    const compiled = compileSafeRegex(regex.pattern, regex.flags.replace(/[gy]/g, ''));
    return (name) => testCapped(compiled, normalizeToolName(name));
  }
  const wanted = normalizeToolName(expected);
  return (name) => normalizeToolName(name) === wanted;
}

/** Whether two expected names are the same name: literals after normalizing, a `/regex/` as written (overlap is not reasoned about). */
export function sameToolName(a: string, b: string): boolean {
  const key = (name: string) => (parseSlashRegex(name) ? name : normalizeToolName(name));
  return key(a) === key(b);
}

/** Throws a located ConfigError when `value` is not a usable expected tool name. */
export function validateToolName(value: unknown, at: PathSegments, locate: Locator): void {
  if (typeof value !== 'string' || value === '') throw locate(at, 'expected a tool name or a /regex/');
  const regex = parseSlashRegex(value);
  if (!regex) return;
  const problem = regexProblem(regex.pattern, regex.flags.replace(/[gy]/g, ''));
  if (problem) throw locate(at, problem);
}
