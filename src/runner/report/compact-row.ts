import type { ScenarioRow } from './report.js';

/**
 * Makes the compact rows agentcheck run keeps in memory when whole rows wait on disk
 * (row-spill.ts, docs/report-format.md). A passing row keeps everything the summary, the
 * statistics and the terminal table read of it, and loses the rest: no transcript, its checks
 * with only id, kind and status (reason and evidence emptied), its test_run without output,
 * verdict_reason and approvals. Rows that did not pass are kept whole: their details are shown.
 *
 * Parts that passing rows repeat (check lists, tool counts, the resolved config, tags, expected
 * tools) are shared between rows that have them alike, frozen. They are copies made from JSON:
 * strings cut from a scenario file's text keep that whole text alive, so rows keep none of them.
 */
export class RowCompactor {
  private readonly shared = new Map<string, unknown>();

  /** The compact form of `row` (the row itself when it did not pass). */
  compact(row: ScenarioRow): ScenarioRow {
    if (row.status !== 'pass') return row;
    // Built field by field, not by spreading: every row then has the same hidden class in V8,
    // where spread copies got one each (about 1 KB a row).
    const compact: ScenarioRow = {
      id: copy(row.id),
      name: copy(row.name),
      file: copy(row.file),
      variant: copy(row.variant),
      repeat: row.repeat,
      tags: this.share(row.tags),
      status: row.status,
      reason: copy(row.reason),
      test_run: row.test_run && {
        output: '',
        tools: this.share(row.test_run.tools),
        approvals: NO_APPROVALS,
        resolved: this.share(row.test_run.resolved),
        trace_id: copy(row.test_run.trace_id),
        stop_reason: row.test_run.stop_reason,
        verdict: row.test_run.verdict,
        verdict_reason: '',
      },
      checks: this.share(row.checks.map((check) => ({ id: check.id, kind: check.kind, status: check.status, reason: '', evidence: [] }))),
      turns: row.turns,
      duration_ms: row.duration_ms,
      error: row.error && this.share(row.error),
    };
    if (row.expect_failure !== undefined) compact.expect_failure = copy(row.expect_failure);
    if (row.expected_tools !== undefined) compact.expected_tools = this.share(row.expected_tools);
    if (row.nested_calls !== undefined) compact.nested_calls = this.share(row.nested_calls);
    // Numbers only, and they differ from run to run: kept as they are.
    if (row.usage !== undefined) compact.usage = row.usage;
    if (row.resumes !== undefined) compact.resumes = this.share(row.resumes);
    if (row.no_expectation !== undefined) compact.no_expectation = row.no_expectation;
    return compact;
  }

  private share<T>(value: T): T {
    const key = JSON.stringify(value);
    let kept = this.shared.get(key) as T | undefined;
    if (kept === undefined) {
      kept = deepFreeze(JSON.parse(key) as T);
      this.shared.set(key, kept);
    }
    return kept;
  }
}

/** The approvals of every compact row: none kept (the terminal table and statistics read none). */
const NO_APPROVALS: never[] = Object.freeze([]) as never[];

/** A copy of `text` of its own (never a slice of a longer string that it would keep alive). */
function copy(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}
