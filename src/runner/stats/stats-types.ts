/** The stats block's format and version (report.json `stats.schema`). */
export const STATS_SCHEMA = 'agentcheck.stats/1';

/** How a scenario behaved over its repeats under one variant. */
export type StabilityLabel = 'stable-pass' | 'flaky' | 'stable-fail';

/** A closed interval of proportions (or differences of proportions). */
export interface Interval {
  low: number;
  high: number;
}

/** Mean and nearest-rank percentiles of one per-run measure; null when no run had a value. */
export interface Distribution {
  /** Runs that had a value. */
  n: number;
  mean: number | null;
  p50: number | null;
  p95: number | null;
}

/** pass@k and pass^k for one k, averaged over the scenarios with at least k counted repeats. */
export interface PassAtK {
  k: number;
  pass_at_k: number;
  pass_hat_k: number;
  /** Scenarios averaged (those with n >= k). */
  scenarios: number;
}

/** Per expected tool: runs that missed it, and the unexpected tools those runs called instead. */
export interface ToolConfusion {
  missed: number;
  called_instead: Record<string, number>;
}

/** Tool selection against the scenarios' expected tools, for one variant. */
export interface ToolSelection {
  /** Runs scored: counted rows whose run made choices (madeChoices) and whose scenario names at least one expected tool. */
  runs: number;
  /** Micro-averaged: pooled hits / pooled distinct tools called. */
  precision: number | null;
  /** Micro-averaged: pooled hits / pooled expected tools. */
  recall: number | null;
  /** Mean of per-run precision over runs that called any tool. */
  macro_precision: number | null;
  /** Mean of per-run recall over the scored runs. */
  macro_recall: number | null;
  /** Calls (not distinct tools) of tools outside the expected set. */
  wrong_tool_calls: { total: number; per_run: number | null };
  /** Expected tool -> what was called instead in the runs that missed it. */
  confusion: Record<string, ToolConfusion>;
}

/** Everything computed for one variant. */
export interface VariantStatistics {
  /** Rows that ran to a result (pass, fail or error); not_run and skipped are left out. */
  runs: number;
  passed: number;
  pass_rate: number | null;
  /** 95% Wilson score interval of the pass rate. */
  pass_rate_ci: Interval | null;
  /** k = 1 .. the most counted repeats of any scenario. */
  pass_k: PassAtK[];
  labels: { stable_pass: number; flaky: number; stable_fail: number };
  tool_selection: ToolSelection;
  /** Model calls per run, over the counted runs that made choices (madeChoices). */
  turns: Distribution;
  /** Tokens per run, over the counted runs that made choices and carry usage. */
  tokens: { input: Distribution; output: Distribution; total: Distribution };
  /** Wall time per run, over every counted run. */
  duration_ms: Distribution;
}

/** One scenario under one variant. */
export interface ScenarioOutcome {
  runs: number;
  passed: number;
  label: StabilityLabel;
}

/** A variant against the reference variant over the same scenario x repeat pairs. */
export interface PairedComparison {
  base: string;
  variant: string;
  /** Scenario x repeat pairs where both rows ran to a result. */
  pairs: number;
  scenarios: number;
  both_pass: number;
  base_only: number;
  variant_only: number;
  both_fail: number;
  base_pass_rate: number | null;
  variant_pass_rate: number | null;
  /** variant_pass_rate - base_pass_rate over the pairs. */
  difference: number | null;
  /** Scenario-resampling percentile bootstrap interval of `difference`. */
  difference_ci: Interval | null;
  /** McNemar's exact (binomial) two-sided p on base_only vs variant_only; null without pairs. */
  mcnemar_p: number | null;
  bootstrap: { resamples: number; seed: number };
  /** Scenario ids whose variant passes outnumber the base's over their pairs. */
  flipped_to_pass: string[];
  /** Scenario ids whose base passes outnumber the variant's over their pairs. */
  flipped_to_fail: string[];
}

/** report.json `stats` (docs/statistics.md). */
export interface ReportStats {
  schema: typeof STATS_SCHEMA;
  /** The reference variant of the paired comparisons. */
  base: string | null;
  confidence: number;
  variants: Record<string, VariantStatistics>;
  /** Scenario id -> variant -> outcome. */
  scenarios: Record<string, Record<string, ScenarioOutcome>>;
  paired: PairedComparison[];
}
