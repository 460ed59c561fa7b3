import type { Message } from '../../engine/model/message.js';
import type { CheckResult } from '../../verdicts/checks/check.js';
import type { ReportStats } from '../stats/stats-types.js';
import type { MergeInfo } from '../merge/merge-info.js';
import type { TestRunResult } from '../test-run.js';

/** Every status a row may have (RowStatus), for readers that check a row they were given. */
export const ROW_STATUSES = ['pass', 'fail', 'error', 'not_run', 'skipped'] as const;
export type RowStatus = (typeof ROW_STATUSES)[number];

/** One scenario x variant x repeat: always present in a report, whatever happened. */
export interface ScenarioRow {
  id: string;
  name: string;
  file: string;
  variant: string;
  repeat: number;
  tags: string[];
  status: RowStatus;
  /** Why the row is not a plain pass (or the expected failure it demonstrates). */
  reason: string;
  test_run: TestRunResult | null;
  checks: CheckResult[];
  /** Model calls made. */
  turns: number;
  duration_ms: number;
  error: { type: string; message: string } | null;
  expect_failure?: string;
  /**
   * Tools the scenario expects (terminal_tool, tool_called, tool_sequence), normalized, without
   * /regex/ names; the reference for tool-selection statistics. Absent in older reports.
   */
  expected_tools?: string[];
  /**
   * Calls made inside plans and chains of the expected tools that a `nested: true` check names,
   * by tool: tool-selection statistics count them as the check did. Absent when there are none.
   */
  nested_calls?: Record<string, number>;
  /**
   * A flow's run (docs/workflows.md): the calls its deterministic steps made, by tool in
   * first-call order (empty when they made none). The transcript holds only the model's calls;
   * `test_run.tools` counts both. Absent for a run that is no flow's.
   */
  flow_calls?: Array<{ name: string; called: number }>;
  /**
   * Tokens the run's model calls used; absent when the run never produced a turn.
   * cached_input_tokens and reasoning_tokens appear when the provider reports them.
   */
  usage?: { input_tokens: number; output_tokens: number; cached_input_tokens?: number; reasoning_tokens?: number };
  /** A scenario with `resume`: each pause (the gated tool) and the decision it was resumed with. */
  resumes?: Array<{ tool: string; decision: string }>;
  /**
   * The run's messages as the model saw them: user input, assistant text and tool calls with
   * arguments, tool results after prompt security; secret values scrubbed. Absent when the run
   * never produced a turn (and in older reports).
   */
  transcript?: Message[];
  /**
   * True when the scenario expects nothing (no terminal_tool, verdict, checks or expect_failure):
   * its PASS only says the run happened. Absent otherwise.
   */
  no_expectation?: true;
  /**
   * True when the run ended with an error before the model answered and before any tool was
   * called: it made no choices, so statistics leave it out of tool selection, turns and tokens
   * (docs/statistics.md). Absent otherwise.
   */
  no_choices?: true;
}

export interface ReportSummary {
  total: number;
  passed: number;
  failed: number;
  errored: number;
  not_run: number;
  skipped: number;
}

/** report.json (schema agentcheck.report/1): self-describing, re-scorable with spans.jsonl. */
export interface Report {
  schema: 'agentcheck.report/1';
  started_at: string;
  duration_ms: number;
  /** True when the run was interrupted: rows not reached are `not_run`. */
  interrupted: boolean;
  suite: {
    paths: string[];
    config: string | null;
    variants: string[];
    repeat: number;
    concurrency: number;
    shard: { index: number; total: number } | null;
    grep: string | null;
    /** `--tag` values, sorted; absent when no --tag was given. */
    tags?: string[];
    harness: string;
    /** Identity of the selection (src/runner/report/suite-fingerprint.ts); `agentcheck merge` compares it. */
    fingerprint?: string;
    /** Hash of what every selected scenario contains, before sharding (part of the fingerprint). */
    content?: string;
    /**
     * What each variant other than `base` changes: its delta `{set, remove}` as the suite config
     * gives it. Absent when only `base` ran (and in older reports).
     */
    variant_deltas?: Record<string, unknown>;
  };
  summary: ReportSummary;
  scenarios: ScenarioRow[];
  /** Per-variant statistics, per-scenario outcomes and paired comparisons (docs/statistics.md). */
  stats?: ReportStats;
  /** Set by `agentcheck merge`: the shard reports this one combines. */
  merged?: MergeInfo;
  /** Errors no code awaited, thrown during the run (they fail it, exit 1); absent when there were none. */
  stray_errors?: StrayErrorsRecord;
}

/** A run's stray errors: how many, and the first one's message and where it was thrown (docs/report-format.md). */
export interface StrayErrorsRecord {
  count: number;
  first: string;
}

/** Counts rows by status. */
export function summarize(rows: readonly ScenarioRow[]): ReportSummary {
  const summary: ReportSummary = { total: rows.length, passed: 0, failed: 0, errored: 0, not_run: 0, skipped: 0 };
  for (const row of rows) {
    if (row.status === 'pass') summary.passed++;
    else if (row.status === 'fail') summary.failed++;
    else if (row.status === 'error') summary.errored++;
    else if (row.status === 'not_run') summary.not_run++;
    else summary.skipped++;
  }
  return summary;
}
