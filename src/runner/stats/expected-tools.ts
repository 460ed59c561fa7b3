import { fullToolName, hasServerPrefix, normalizeToolName } from '../../spans/conventions.js';
import { parseSlashRegex } from '../../spans/query-regex.js';
import { canonicalToolName, toolNameMatcher } from '../../verdicts/tool-name.js';
import type { ScenarioExpect } from '../scenario/scenario.js';

type CalledParams = { tool?: unknown; min?: unknown; max?: unknown; nested?: unknown };
type SequenceParams = { calls?: Array<{ tool?: unknown }>; mode?: unknown; nested?: unknown };

/**
 * The tools a scenario expects, for tool-selection statistics: terminal_tool, every
 * `tool_called.tool` and every `tool_sequence.calls[].tool`, as checks compare them (no
 * `execute_tool ` prefix; a name written with its `mcp__<server>__` prefix keeps it, since it
 * names that server's tool only, any other without it), first-mention order, without duplicates.
 * Left out: `/regex/` names (a pattern names no single tool), a `tool_called` with `min: 0` (the
 * tool may be called, or with `max: 0` must not be), the calls of a `subset` sequence (tools the
 * run may call, not must), and a terminal tool the scenario expects not to be reached (`verdict:
 * incomplete`).
 */
export function expectedTools(expect: Pick<ScenarioExpect, 'terminal_tool' | 'checks' | 'verdict'>): string[] {
  const names: string[] = [];
  if (expect.terminal_tool && expect.verdict !== 'incomplete') names.push(expect.terminal_tool);
  for (const check of expect.checks) names.push(...namesExpectedBy(check, false));
  return literalNames(names);
}

/** The tools one check expects to be called (with `nestedOnly`, only if it counts nested calls). */
function namesExpectedBy(check: ScenarioExpect['checks'][number], nestedOnly: boolean): string[] {
  const names: string[] = [];
  const called = check.tool_called as CalledParams | undefined;
  if (typeof called?.tool === 'string' && called.min !== 0 && called.max !== 0 && (!nestedOnly || called.nested === true)) names.push(called.tool);
  const sequence = check.tool_sequence as SequenceParams | undefined;
  if (sequence && sequence.mode !== 'subset' && (!nestedOnly || sequence.nested === true)) {
    for (const call of sequence.calls ?? []) if (typeof call?.tool === 'string') names.push(call.tool);
  }
  return names;
}

/**
 * The expected tools that a check with `nested: true` names (tool_called, tool_sequence): for
 * them, tool-selection statistics count calls made inside plans and chains too, as the check did.
 */
export function nestedExpectedTools(expect: Pick<ScenarioExpect, 'checks'>): string[] {
  return literalNames(expect.checks.flatMap((check) => namesExpectedBy(check, true)));
}

/** The literal names as checks compare them, each once. */
function literalNames(names: readonly string[]): string[] {
  return [...new Set(names.filter((name) => !parseSlashRegex(name)).map(canonicalToolName))];
}

/**
 * Whether a called tool (its full name: `mcp__<server>__<tool>` for an MCP tool) is one of the
 * `expected` tools, by the checks' matcher: a name with a server prefix is that server's tool
 * only, any other matches the tool of that name of the agent and of every server. A `/regex/`
 * (only in a report edited by hand) expects no single tool.
 */
export function isExpectedTool(expected: readonly string[], calledName: string): boolean {
  return expected.some((name) => !parseSlashRegex(name) && toolNameMatcher(name)(calledName));
}

/**
 * The name statistics count a called tool under: its name without the server (as checks name it),
 * unless a server-prefixed expected name has its tool part; then its full name, so a call of
 * `mcp__b__write_note` is not counted as the `mcp__a__write_note` the scenario expects.
 */
export function countedToolName(expected: readonly string[], calledName: string): string {
  const bare = normalizeToolName(calledName);
  const prefixed = hasServerPrefix(calledName) && expected.some((name) => hasServerPrefix(name) && normalizeToolName(name) === bare);
  return prefixed ? fullToolName(calledName) : bare;
}
