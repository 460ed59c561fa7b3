import type { Report, ScenarioRow } from '../report/report.js';
import { pairKey } from '../report/run-key.js';
import { rowReason } from '../reporters/format/row-cells.js';
import { trajectoryChanges, type TrajectoryChange } from './trajectory-changes.js';

/** One scenario x variant whose outcome differs between two reports. */
export interface ComparedScenario {
  key: string;
  id: string;
  variant: string;
  base: string | null;
  head: string | null;
  /** Pass rate over repeats, 0..1; null when absent. */
  base_pass_rate: number | null;
  head_pass_rate: number | null;
  /** For a regression: why the head report's first failing run of it did not pass. */
  head_reason?: string;
}

/** What `agentcheck compare` reports: outcome changes per scenario x variant and trajectory changes. */
export interface ReportComparison {
  regressed: ComparedScenario[];
  improved: ComparedScenario[];
  appeared: ComparedScenario[];
  vanished: ComparedScenario[];
  /** Had results in one report and is skipped (`skip:`) in the other: not compared, neither vanished nor appeared. */
  skipped: ComparedScenario[];
  /** Not run (an interrupt) in one report or both, without a result to compare: neither vanished nor appeared. */
  not_run: ComparedScenario[];
  /** Counts outcomes only: a scenario whose trajectory changed may still be unchanged here. */
  unchanged: number;
  /** Tool calls added, removed or reordered per scenario x variant (repeat 0). */
  trajectory: TrajectoryChange[];
  /** Which report was interrupted (its not_run rows are no results): the comparison is then incomplete. */
  interrupted: { base: boolean; head: boolean };
  /** Shards a merged report lacks (its `merged.missing_shards`): their scenarios are no results either. */
  missing_shards: { base: number[]; head: number[] };
  /** The base report has results but the head shares none of them: nothing was compared. */
  nothing_shared: boolean;
}

/**
 * Compares two reports per scenario x variant (repeats pooled): a lower pass rate is a
 * regression, a higher one an improvement; scenarios only in one report appeared or vanished
 * (unless skipped or not run in the other);
 * trajectory changes list how the tool calls moved.
 */
export function compareReports(base: Report, head: Report): ReportComparison {
  const before = groupRows(base.scenarios);
  const after = groupRows(head.scenarios);
  const withStatus = (report: Report, status: 'skipped' | 'not_run') => new Set(report.scenarios.filter((row) => row.status === status).map(pairKey));
  const [skippedInBase, skippedInHead] = [withStatus(base, 'skipped'), withStatus(head, 'skipped')];
  const [notRunInBase, notRunInHead] = [withStatus(base, 'not_run'), withStatus(head, 'not_run')];
  const result: ReportComparison = {
    regressed: [],
    improved: [],
    appeared: [],
    vanished: [],
    skipped: [],
    not_run: [],
    unchanged: 0,
    trajectory: trajectoryChanges(base, head),
    interrupted: { base: base.interrupted === true, head: head.interrupted === true },
    missing_shards: { base: [...(base.merged?.missing_shards ?? [])], head: [...(head.merged?.missing_shards ?? [])] },
    nothing_shared: false,
  };
  for (const [key, rows] of after) {
    const old = before.get(key);
    const entry = describe(key, old, rows);
    if (!old && skippedInBase.has(key)) result.skipped.push({ ...entry, base: 'skipped' });
    else if (!old && notRunInBase.has(key)) result.not_run.push({ ...entry, base: 'not_run' });
    else if (!old) result.appeared.push(entry);
    else if ((entry.head_pass_rate ?? 0) < (entry.base_pass_rate ?? 0)) result.regressed.push({ ...entry, head_reason: headReason(rows) });
    else if ((entry.head_pass_rate ?? 0) > (entry.base_pass_rate ?? 0)) result.improved.push(entry);
    else result.unchanged++;
  }
  for (const [key, rows] of before) {
    if (after.has(key)) continue;
    const entry = describe(key, rows, undefined);
    if (skippedInHead.has(key)) result.skipped.push({ ...entry, head: 'skipped' });
    else if (notRunInHead.has(key)) result.not_run.push({ ...entry, head: 'not_run' });
    else result.vanished.push(entry);
  }
  // A pair with no result in either report (not run in both, skipped in one and not run in the
  // other, or not run in one and absent from the other) is still listed: every pair is accounted for.
  const resultless = new Map<string, ScenarioRow>();
  for (const row of [...base.scenarios, ...head.scenarios]) {
    const key = pairKey(row);
    if ((row.status === 'skipped' || row.status === 'not_run') && !before.has(key) && !after.has(key) && !resultless.has(key)) resultless.set(key, row);
  }
  const noResult = (skipped: Set<string>, notRun: Set<string>, key: string) => (skipped.has(key) ? 'skipped' : notRun.has(key) ? 'not_run' : null);
  for (const [key, row] of resultless) {
    // Skipped in both: nothing changed.
    if (skippedInBase.has(key) && skippedInHead.has(key)) {
      result.unchanged++;
      continue;
    }
    const entry: ComparedScenario = {
      key,
      id: row.id,
      variant: row.variant,
      base: noResult(skippedInBase, notRunInBase, key),
      head: noResult(skippedInHead, notRunInHead, key),
      base_pass_rate: null,
      head_pass_rate: null,
    };
    (entry.base === 'skipped' || entry.head === 'skipped' ? result.skipped : result.not_run).push(entry);
  }
  result.nothing_shared = before.size > 0 && result.vanished.length === before.size;
  return result;
}

function groupRows(rows: readonly ScenarioRow[]): Map<string, ScenarioRow[]> {
  const groups = new Map<string, ScenarioRow[]>();
  for (const row of rows) {
    if (row.status === 'not_run' || row.status === 'skipped') continue;
    const key = pairKey(row);
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  return groups;
}

function describe(key: string, base: ScenarioRow[] | undefined, head: ScenarioRow[] | undefined): ComparedScenario {
  const any = (head ?? base ?? [])[0];
  return {
    key,
    id: any?.id ?? key,
    variant: any?.variant ?? 'base',
    base: base ? statusOf(base) : null,
    head: head ? statusOf(head) : null,
    base_pass_rate: base ? passRate(base) : null,
    head_pass_rate: head ? passRate(head) : null,
  };
}

/** The first non-passing head row's reason (its error, else its failed checks). */
function headReason(rows: readonly ScenarioRow[]): string {
  const failing = rows.find((row) => row.status !== 'pass');
  return failing ? rowReason(failing) : '';
}

function passRate(rows: readonly ScenarioRow[]): number {
  return rows.filter((row) => row.status === 'pass').length / rows.length;
}

function statusOf(rows: readonly ScenarioRow[]): string {
  const statuses = [...new Set(rows.map((row) => row.status))];
  return statuses.length === 1 ? statuses[0] : `${rows.filter((r) => r.status === 'pass').length}/${rows.length} pass`;
}
