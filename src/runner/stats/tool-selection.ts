import { normalizeToolName } from '../../spans/conventions.js';
import type { ScenarioRow } from '../report/report.js';
import type { ToolConfusion, ToolSelection } from './stats-types.js';

/** One run's tools against its scenario's expected set. */
export interface RunToolSelection {
  expected: Set<string>;
  /** Distinct tools called at least once. */
  called: Set<string>;
  /** |called ∩ expected|. */
  hits: number;
  /** Calls of tools outside the expected set (each call counts). */
  wrong_calls: number;
  /** Expected tools not called. */
  missed: string[];
  /** Called tools not expected. */
  unexpected: string[];
}

/**
 * Scores one row, or returns null when it cannot be scored: no test_run (the run never
 * happened, so there were no choices to judge) or no expected tools (nothing to judge against;
 * counting every call as wrong would punish scenarios that simply have no tool checks).
 */
export function runToolSelection(row: ScenarioRow): RunToolSelection | null {
  const expected = new Set((row.expected_tools ?? []).map(normalizeToolName));
  if (!row.test_run || !expected.size) return null;
  const counts = new Map<string, number>();
  for (const tool of row.test_run.tools) {
    if (tool.called <= 0) continue;
    const name = normalizeToolName(tool.name);
    counts.set(name, (counts.get(name) ?? 0) + tool.called);
  }
  // Calls inside plans and chains count for the tools a `nested: true` check expected.
  for (const [tool, n] of Object.entries(row.nested_calls ?? {})) {
    const name = normalizeToolName(tool);
    if (n > 0) counts.set(name, (counts.get(name) ?? 0) + n);
  }
  const called = new Set(counts.keys());
  const unexpected = [...called].filter((name) => !expected.has(name));
  return {
    expected,
    called,
    hits: called.size - unexpected.length,
    wrong_calls: unexpected.reduce((sum, name) => sum + counts.get(name)!, 0),
    missed: [...expected].filter((name) => !called.has(name)),
    unexpected,
  };
}

/**
 * Precision and recall of the called tool set against the expected set, micro-averaged (pooled
 * counts, so a run with many tools weighs more) and macro-averaged (mean of per-run ratios);
 * wrong-tool calls; and the confusion table: for each expected tool a run missed, each
 * unexpected tool that run called counts once as "called instead".
 */
export function toolSelection(rows: readonly ScenarioRow[]): ToolSelection {
  let runs = 0;
  let hits = 0;
  let calledTotal = 0;
  let expectedTotal = 0;
  let wrong = 0;
  const precisions: number[] = [];
  const recalls: number[] = [];
  // Maps, not object literals: `__proto__` is a valid tool name.
  const confusion = new Map<string, { missed: number; instead: Map<string, number> }>();
  for (const row of rows) {
    const run = runToolSelection(row);
    if (!run) continue;
    runs++;
    hits += run.hits;
    calledTotal += run.called.size;
    expectedTotal += run.expected.size;
    wrong += run.wrong_calls;
    if (run.called.size) precisions.push(run.hits / run.called.size);
    recalls.push(run.hits / run.expected.size);
    for (const missed of run.missed) {
      let entry = confusion.get(missed);
      if (!entry) confusion.set(missed, (entry = { missed: 0, instead: new Map() }));
      entry.missed++;
      for (const instead of run.unexpected) entry.instead.set(instead, (entry.instead.get(instead) ?? 0) + 1);
    }
  }
  return {
    runs,
    precision: calledTotal ? hits / calledTotal : null,
    recall: expectedTotal ? hits / expectedTotal : null,
    macro_precision: mean(precisions),
    macro_recall: mean(recalls),
    wrong_tool_calls: { total: wrong, per_run: runs ? wrong / runs : null },
    confusion: Object.fromEntries(
      [...confusion].map(([tool, entry]): [string, ToolConfusion] => [tool, { missed: entry.missed, called_instead: Object.fromEntries(entry.instead) }]),
    ),
  };
}

function mean(values: readonly number[]): number | null {
  return values.length ? values.reduce((sum, value) => sum + value, 0) / values.length : null;
}
