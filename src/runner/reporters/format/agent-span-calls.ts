import { normalizeToolName } from '../../../spans/conventions.js';
import type { ScenarioRow } from '../../report/report.js';
import type { AnsweredCall } from './call-results.js';

/** A row of an external agent (docs/external-agents.md): its resolved config says how it ran. */
export function isExternalRow(row: ScenarioRow): boolean {
  return row.test_run?.resolved?.external !== undefined;
}

/**
 * The tool calls of an external agent's run that its transcript does not hold, by tool in
 * first-call order: the calls known from the agent's own spans only (OTLP or spans_url), which
 * never went through the model bridge (docs/external-agents.md, Its own spans). Counted from
 * `test_run.tools`, the digest the tools column shows, less the transcript's calls; empty for
 * an engine agent's row, whose calls are all in its transcript.
 */
export function agentSpanCalls(row: ScenarioRow, transcriptCalls: readonly AnsweredCall[]): Array<{ name: string; called: number }> {
  if (!isExternalRow(row)) return [];
  const seen = new Map<string, number>();
  for (const { call } of transcriptCalls) {
    const name = normalizeToolName(call.tool_name);
    seen.set(name, (seen.get(name) ?? 0) + 1);
  }
  const calls: Array<{ name: string; called: number }> = [];
  for (const tool of row.test_run?.tools ?? []) {
    const called = tool.called - (seen.get(tool.name) ?? 0);
    if (called > 0) calls.push({ name: tool.name, called });
  }
  return calls;
}
