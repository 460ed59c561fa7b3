import { HARNESS } from '../../engine/resolve-config.js';
import { computeStats } from '../stats/compute-stats.js';
import { summarize, type Report, type ScenarioRow } from './report.js';
import { suiteFingerprint } from './suite-fingerprint.js';

/** How a suite was chosen (what `agentcheck run` was given): recorded in the report and its fingerprint. */
export interface SuiteSelectionRecord {
  /** Scenario paths as given (empty when the config's `scenarios` decided). */
  paths: readonly string[];
  /** The suite config file, or null. */
  config: string | null;
  shard?: { index: number; total: number } | null;
  grep?: string | null;
  tags?: readonly string[];
  overlay?: readonly string[];
  /** The folder the suite ran in. */
  cwd: string;
}

/** Everything a report is assembled from. */
export interface ReportInput {
  selection: SuiteSelectionRecord;
  variants: string[];
  /** The delta of each variant other than `base`; recorded as suite.variant_deltas. */
  variantDeltas?: Record<string, unknown>;
  repeat: number;
  /** Hash of the selected scenarios' contents (load-suite.ts). */
  contentHash: string;
  concurrency: number;
  rows: ScenarioRow[];
  startedAt: Date;
  durationMs: number;
  interrupted: boolean;
}

/** Assembles report.json (docs/report-format.md): suite identity and fingerprint, rows, summary and statistics. */
export function buildReport(input: ReportInput): Report {
  const { selection } = input;
  const report: Report = {
    schema: 'agentcheck.report/1',
    started_at: input.startedAt.toISOString(),
    duration_ms: input.durationMs,
    interrupted: input.interrupted,
    suite: {
      paths: [...selection.paths],
      config: selection.config,
      variants: input.variants,
      repeat: input.repeat,
      concurrency: input.concurrency,
      shard: selection.shard ?? null,
      grep: selection.grep ?? null,
      ...(selection.tags?.length ? { tags: [...new Set(selection.tags)].sort() } : {}),
      harness: HARNESS,
      content: input.contentHash,
      fingerprint: suiteFingerprint({
        paths: selection.paths,
        config: selection.config,
        variants: input.variants,
        variantDeltas: input.variantDeltas,
        repeat: input.repeat,
        grep: selection.grep,
        tags: selection.tags,
        overlay: selection.overlay,
        harness: HARNESS,
        cwd: selection.cwd,
        content: input.contentHash,
      }),
      ...(input.variantDeltas && Object.keys(input.variantDeltas).length ? { variant_deltas: input.variantDeltas } : {}),
    },
    summary: summarize(input.rows),
    scenarios: input.rows,
  };
  report.stats = computeStats(report);
  return report;
}
