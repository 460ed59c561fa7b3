import { normalizeToolName } from '../../spans/conventions.js';
import { pairKey } from '../report/run-key.js';
import type { Report, ScenarioRow } from '../report/report.js';
import { isCounted } from '../stats/outcomes.js';

/** A tool name and how many more (added) or fewer (removed) calls it got. */
export interface ToolCountChange {
  tool: string;
  count: number;
}

/** How one scenario x variant's tool calls (repeat 0) changed between two reports. */
export interface TrajectoryChange {
  key: string;
  id: string;
  variant: string;
  /** Calls the head made beyond the base's, per tool (name multiset difference). */
  added: ToolCountChange[];
  /** Calls the base made beyond the head's, per tool. */
  removed: ToolCountChange[];
  /** Same calls per tool, different first-call order. */
  reordered: boolean;
  /** Tools in first-call order. */
  base_order: string[];
  head_order: string[];
}

/**
 * Trajectory changes per scenario x variant present in both reports, from repeat 0's
 * test_run.tools (a per-tool digest in first-call order). Only repeat 0: repeats of a
 * nondeterministic model differ among themselves, and comparing like with like keeps the
 * output about the change, not the noise. Rows without a test_run are skipped (no trajectory),
 * and so are not_run rows (an interrupted run keeps its cut test_run) and skipped ones.
 */
export function trajectoryChanges(base: Report, head: Report): TrajectoryChange[] {
  const before = firstRepeats(base.scenarios);
  const changes: TrajectoryChange[] = [];
  for (const [key, row] of firstRepeats(head.scenarios)) {
    const old = before.get(key);
    if (!old?.test_run || !row.test_run) continue;
    const change = diffTools(old.test_run.tools, row.test_run.tools);
    if (change.added.length || change.removed.length || change.reordered) changes.push({ key, id: row.id, variant: row.variant, ...change });
  }
  return changes;
}

/** Added/removed call counts per tool and whether the first-call order changed. */
export function diffTools(
  base: ReadonlyArray<{ name: string; called: number }>,
  head: ReadonlyArray<{ name: string; called: number }>,
): Pick<TrajectoryChange, 'added' | 'removed' | 'reordered' | 'base_order' | 'head_order'> {
  const before = callCounts(base);
  const after = callCounts(head);
  const added: ToolCountChange[] = [];
  const removed: ToolCountChange[] = [];
  for (const [tool, count] of after) if (count > (before.get(tool) ?? 0)) added.push({ tool, count: count - (before.get(tool) ?? 0) });
  for (const [tool, count] of before) if (count > (after.get(tool) ?? 0)) removed.push({ tool, count: count - (after.get(tool) ?? 0) });
  const base_order = [...before.keys()];
  const head_order = [...after.keys()];
  // The tools both runs called, in each run's first-call order: a count that changed beside them
  // does not hide that the order changed (refund before lookup is what tool_order exists for).
  const shared = base_order.filter((tool) => after.has(tool));
  const sharedAfter = head_order.filter((tool) => before.has(tool));
  const reordered = shared.some((tool, index) => sharedAfter[index] !== tool);
  return { added, removed, reordered, base_order, head_order };
}

/** Normalized name -> calls, in first-call order; tools listed but never called are left out. */
function callCounts(tools: ReadonlyArray<{ name: string; called: number }>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const tool of tools) {
    if (tool.called <= 0) continue;
    const name = normalizeToolName(tool.name);
    counts.set(name, (counts.get(name) ?? 0) + tool.called);
  }
  return counts;
}

/** Repeat 0 of each scenario x variant that ran to a result (isCounted). */
function firstRepeats(rows: readonly ScenarioRow[]): Map<string, ScenarioRow> {
  const firsts = new Map<string, ScenarioRow>();
  for (const row of rows) if (row.repeat === 0 && isCounted(row)) firsts.set(pairKey(row), row);
  return firsts;
}
