import { normalizeToolName } from '../../spans/conventions.js';
import { parseSlashRegex } from '../../spans/query-regex.js';
import type { ScenarioExpect } from '../scenario/scenario.js';

/**
 * The tools a scenario expects, for tool-selection statistics: terminal_tool, every
 * `tool_called.tool` and every `tool_sequence.calls[].tool`, normalized (no `execute_tool `
 * or `mcp__<server>__` prefix), first-mention order, without duplicates. `/regex/` names are
 * left out: a pattern names no single tool, so there is nothing to count a call against.
 */
export function expectedTools(expect: Pick<ScenarioExpect, 'terminal_tool' | 'checks'>): string[] {
  const names: string[] = [];
  if (expect.terminal_tool) names.push(expect.terminal_tool);
  for (const check of expect.checks) {
    const called = check.tool_called as { tool?: unknown } | undefined;
    if (typeof called?.tool === 'string') names.push(called.tool);
    const sequence = check.tool_sequence as { calls?: Array<{ tool?: unknown }> } | undefined;
    for (const call of sequence?.calls ?? []) if (typeof call?.tool === 'string') names.push(call.tool);
  }
  return [...new Set(names.filter((name) => !parseSlashRegex(name)).map(normalizeToolName))];
}

/**
 * The expected tools that a check with `nested: true` names (tool_called, tool_sequence): for
 * them, tool-selection statistics count calls made inside plans and chains too, as the check did.
 */
export function nestedExpectedTools(expect: Pick<ScenarioExpect, 'checks'>): string[] {
  const names: string[] = [];
  for (const check of expect.checks) {
    const called = check.tool_called as { tool?: unknown; nested?: unknown } | undefined;
    if (called?.nested === true && typeof called.tool === 'string') names.push(called.tool);
    const sequence = check.tool_sequence as { calls?: Array<{ tool?: unknown }>; nested?: unknown } | undefined;
    if (sequence?.nested === true) for (const call of sequence.calls ?? []) if (typeof call?.tool === 'string') names.push(call.tool);
  }
  return [...new Set(names.filter((name) => !parseSlashRegex(name)).map(normalizeToolName))];
}
