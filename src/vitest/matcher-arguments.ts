import { memoryLocator } from '../config/assert-format.js';
import { didYouMean } from '../config/did-you-mean.js';
import { ConfigError } from '../config/errors.js';
import { argumentNameProblem } from '../runner/scenario/check-argument-names.js';
import { regexNamesHint } from '../runner/scenario/check-scenario-names.js';
import { hasServerPrefix, normalizeToolName } from '../spans/conventions.js';
import { parseSlashRegex } from '../spans/query-regex.js';
import { validateExpectedArgs } from '../verdicts/args/validate-expected.js';
import { show } from '../verdicts/describe.js';
import { toolNameMatcher } from '../verdicts/tool-name.js';
import type { MatcherSubject } from './subject.js';

/**
 * Refuses a tool name the run's build cannot call (nor did the run call it): a negative matcher
 * on a misspelt name (`.not.toHaveCalledTool('delete_ordr')`) would pass whatever the agent did,
 * as a scenario check on it is refused at load; the names are the ones those checks accept, a
 * plan's or chain's tools included (docs/vitest.md). A `/regex/` must match one of them.
 * Unchecked when the subject carries no tool list (a build that takes any name).
 */
export function checkToolName(matcher: string, name: string, subject: MatcherSubject): void {
  if (!subject.buildTools.length) return;
  const known = knownToolNames(subject);
  const matches = toolNameMatcher(name);
  if (known.some((tool) => matches(tool))) return;
  if (parseSlashRegex(name)) {
    throw new TypeError(`${matcher}: the pattern ${name} matches none of the build's tools (its tools: ${known.join(', ')})${regexNamesHint(known)}`);
  }
  const hint = didYouMean(name, known) || didYouMean(normalizeToolName(name), known.map(normalizeToolName));
  throw new TypeError(`${matcher}: the build has no tool ${show(name)}${hint} (its tools: ${known.join(', ')})`);
}

/**
 * The build's tools with the ones the run called, each once: the digest's names have no server
 * part, so a bare name whose full name (`mcp__<server>__<name>`) is listed is left out.
 */
function knownToolNames(subject: MatcherSubject): string[] {
  const full = new Set(subject.buildTools);
  const covered = new Set([...full].filter(hasServerPrefix).map(normalizeToolName));
  const called = subject.tools.map((tool) => tool.name).filter((name) => !full.has(name) && !covered.has(name));
  return [...full, ...new Set(called)];
}

/**
 * Refuses a server-prefixed name (`mcp__b__write_note`, one server's tool) in a first-call order
 * on a subject that carries only the digest: it counts each tool's calls by server, but its order
 * is by name, so server a's first write_note could not be told from b's (or the agent's own).
 */
export function checkServerNamed(matcher: string, name: string, subject: MatcherSubject): void {
  if (subject.calls || parseSlashRegex(name) || !hasServerPrefix(name)) return;
  throw new TypeError(
    `${matcher}: ${show(name)} names one MCP server's tool, but ${subject.label} carries no recorded calls, only its digest, whose first-call order is by tool name without the server; get it from runScenario() or testRun() of agentcheck/vitest, or name the tool without its mcp__<server>__ prefix`,
  );
}

/**
 * Refuses an expected argument name the tool does not take when its parameters are closed, with
 * the message a scenario check on it gets at load: `.not.toHaveCalledTool(tool, {ordr_id})`
 * would otherwise pass whatever the agent did. An MCP tool's parameters are known only when the
 * run's listing was recorded with the build (run-build.ts). Unchecked without a recorded build.
 */
export function checkArgumentNames(matcher: string, name: string, args: Record<string, unknown>, subject: MatcherSubject): void {
  if (!subject.build) return;
  const problem = argumentNameProblem(name, Object.keys(args), subject.build, memoryLocator('arguments'));
  if (problem) throw new TypeError(`${matcher}: ${problem.message}`);
}

/** Refuses expected arguments a check would refuse (an unknown `$regx` matcher), which could only never match. */
export function checkExpectedArgs(matcher: string, args: Record<string, unknown>): void {
  try {
    validateExpectedArgs(args, [], memoryLocator('arguments'));
  } catch (error) {
    if (error instanceof ConfigError) throw new TypeError(`${matcher}: ${error.message}`);
    throw error;
  }
}
