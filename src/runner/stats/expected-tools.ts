import { normalizeToolName } from '../../spans/conventions.js';
import { parseSlashRegex } from '../../spans/query-regex.js';
import type { ScenarioExpect } from '../scenario/scenario.js';

type CalledParams = { tool?: unknown; min?: unknown; max?: unknown; nested?: unknown };
type SequenceParams = { calls?: Array<{ tool?: unknown }>; mode?: unknown; nested?: unknown };

/**
 * The tools a scenario expects, for tool-selection statistics: terminal_tool, every
 * `tool_called.tool` and every `tool_sequence.calls[].tool`, normalized (no `execute_tool `
 * or `mcp__<server>__` prefix), first-mention order, without duplicates. Left out: `/regex/`
 * names (a pattern names no single tool), a `tool_called` with `min: 0` (the tool may be
 * called, or with `max: 0` must not be), the calls of a `subset` sequence (tools the run may
 * call, not must), and a terminal tool the scenario expects not to be reached (`verdict:
 * incomplete`).
 */
export function expectedTools(expect: Pick<ScenarioExpect, 'terminal_tool' | 'checks' | 'verdict'>): string[] {
  const names: string[] = [];
  if (expect.terminal_tool && expect.verdict !== 'incomplete') names.push(expect.terminal_tool);
  for (const check of expect.checks) names.push(...namesExpectedBy(check, false));
  return [...new Set(names.filter((name) => !parseSlashRegex(name)).map(normalizeToolName))];
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
  const names = expect.checks.flatMap((check) => namesExpectedBy(check, true));
  return [...new Set(names.filter((name) => !parseSlashRegex(name)).map(normalizeToolName))];
}
