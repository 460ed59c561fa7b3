import { parseSlashRegex } from '../../spans/query-regex.js';
import { digestCallsByFullName } from '../../verdicts/tool-digest.js';
import { canonicalToolName } from '../../verdicts/tool-name.js';
import type { ScenarioRow } from '../report/report.js';
import { countedToolName, isExpectedTool } from './expected-tools.js';
import { madeChoices } from './made-choices.js';
import type { ToolConfusion, ToolSelection } from './stats-types.js';

/** One run's tools against its scenario's expected set. */
export interface RunToolSelection {
  /** The expected names as checks compare them (expected-tools.ts). */
  expected: Set<string>;
  /** Distinct tools called at least once, by the name they are counted under (countedToolName). */
  called: Set<string>;
  /** Called tools that an expected name names (precision's numerator). */
  hits: number;
  /** Expected names that some called tool matches (recall's numerator). */
  found: number;
  /** Calls of tools outside the expected set (each call counts). */
  wrong_calls: number;
  /** Expected tools not called. */
  missed: string[];
  /** Called tools not expected. */
  unexpected: string[];
}

/**
 * Scores one row, or returns null when it cannot be scored: its run made no choices (no test_run,
 * or it ended with an error before the model answered or any tool was called: madeChoices) or no
 * expected tools (nothing to judge against; counting every call as wrong would punish scenarios
 * that simply have no tool checks). Names
 * match as in checks (docs/statistics.md): an expected `mcp__a__write_note` is server a's tool
 * only, so a call of `mcp__b__write_note` is a wrong call, not a hit.
 */
export function runToolSelection(row: ScenarioRow): RunToolSelection | null {
  // A pattern names no single tool: expectedTools leaves it out, and so does a report edited by hand.
  const expected = new Set((row.expected_tools ?? []).filter((name) => !parseSlashRegex(name)).map(canonicalToolName));
  if (!madeChoices(row) || !expected.size) return null;
  const names = [...expected];
  const counts = new Map<string, number>();
  const add = (calledName: string, n: number) => {
    if (!(n > 0)) return;
    const name = countedToolName(names, calledName);
    counts.set(name, (counts.get(name) ?? 0) + n);
  };
  for (const tool of row.test_run.tools) for (const [calledName, n] of digestCallsByFullName(tool)) add(calledName, n);
  // Calls inside plans and chains count for the tools a `nested: true` check expected.
  for (const [tool, n] of Object.entries(row.nested_calls ?? {})) add(tool, n);
  const called = new Set(counts.keys());
  const unexpected = [...called].filter((calledName) => !isExpectedTool(names, calledName));
  const missed = names.filter((name) => ![...called].some((calledName) => isExpectedTool([name], calledName)));
  return {
    expected,
    called,
    hits: called.size - unexpected.length,
    found: expected.size - missed.length,
    wrong_calls: unexpected.reduce((sum, name) => sum + counts.get(name)!, 0),
    missed,
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
  let found = 0;
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
    found += run.found;
    calledTotal += run.called.size;
    expectedTotal += run.expected.size;
    wrong += run.wrong_calls;
    if (run.called.size) precisions.push(run.hits / run.called.size);
    recalls.push(run.found / run.expected.size);
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
    recall: expectedTotal ? found / expectedTotal : null,
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
