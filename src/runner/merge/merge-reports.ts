import { ConfigError } from '../../config/errors.js';
import { canonicalRowOrder } from '../report/row-order.js';
import { runKey } from '../report/run-key.js';
import { summarize, type Report } from '../report/report.js';
import { reportFingerprint, suiteDifferences } from '../report/suite-fingerprint.js';
import { computeStats } from '../stats/compute-stats.js';
import type { MergeInfo } from './merge-info.js';
import type { ShardReport } from './read-shard-report.js';

/**
 * Combines shard reports of one suite into one report, as if the suite had run unsharded:
 * rows ordered by (id, variant, repeat), summary and statistics recomputed over all rows.
 * Refuses (ConfigError, exit 2) reports of different suites, a mix of shard counts, the same
 * shard twice and any scenario x variant x repeat present in two inputs.
 */
export function mergeReports(inputs: readonly ShardReport[]): Report {
  if (!inputs.length) throw new ConfigError({ file: 'agentcheck merge' }, 'expected at least one report.json');
  assertSameSuite(inputs);
  const total = assertSameSharding(inputs);
  assertNoOverlap(inputs);

  const first = inputs[0].report;
  // Variants in the suite's order, as an unsharded run writes them (not by name).
  const rows = inputs.flatMap((input) => input.report.scenarios).sort(canonicalRowOrder(first.suite.variants));
  const starts = inputs.map((input) => Date.parse(input.report.started_at)).filter(Number.isFinite);
  const ends = inputs.map((input) => Date.parse(input.report.started_at) + input.report.duration_ms).filter(Number.isFinite);
  const startedMs = starts.length ? Math.min(...starts) : Date.now();
  const present = new Set(inputs.map((input) => input.report.suite.shard?.index));
  const merged: MergeInfo = {
    inputs: inputs.map(({ file, report }) => ({ file, shard: report.suite.shard, started_at: report.started_at, rows: report.scenarios.length })),
    missing_shards: total === null ? [] : Array.from({ length: total }, (_v, i) => i + 1).filter((index) => !present.has(index)),
  };

  const report: Report = {
    schema: 'agentcheck.report/1',
    started_at: new Date(startedMs).toISOString(),
    // Wall time from the first shard's start to the last one's end: what CI waited for.
    duration_ms: ends.length ? Math.max(0, Math.round(Math.max(...ends) - startedMs)) : 0,
    interrupted: inputs.some((input) => input.report.interrupted === true),
    // The suite as an unsharded run would record it; concurrency is a shard's (each ran its own).
    suite: { ...first.suite, shard: null },
    summary: summarize(rows),
    scenarios: rows,
    merged,
  };
  // A shard whose run threw stray errors failed (exit 1): the merged report fails with it.
  const strays = inputs.flatMap((input) => (input.report.stray_errors ? [input.report.stray_errors] : []));
  if (strays.length) report.stray_errors = { count: strays.reduce((sum, stray) => sum + stray.count, 0), first: strays[0].first };
  // Shard statistics describe only their shard: drop them and recompute over the whole.
  report.stats = computeStats(report);
  return report;
}

function assertSameSuite(inputs: readonly ShardReport[]): void {
  const reference = inputs[0];
  const fingerprint = reportFingerprint(reference.report);
  for (const other of inputs.slice(1)) {
    if (reportFingerprint(other.report) === fingerprint) continue;
    // Every pair of values reads "this file vs the other", the fingerprints as the fields.
    const differences = suiteDifferences(other.report, reference.report);
    const detail = differences.length
      ? differences.join('; ')
      : // Nothing recorded differs: what the fingerprint takes and the report does not record.
        'no recorded field differs, so the shards differ in what the report does not record: the folder each ran in (the fingerprint takes the config and --overlay folders relative to it; run every shard from the same folder) or the --overlay folders';
    throw new ConfigError(
      { file: other.file },
      `not the same suite as ${reference.file} (this file vs ${reference.file}: suite.fingerprint ${reportFingerprint(other.report)} vs ${fingerprint}; ${detail}). Merge only the shards of one \`agentcheck run ... --shard I/N\` command line`,
      'MERGE_DIFFERENT_SUITES',
    );
  }
}

/** The common shard count (null when no input is sharded); mixing counts, or sharded with unsharded, is refused. */
function assertSameSharding(inputs: readonly ShardReport[]): number | null {
  const totals = new Set(inputs.map((input) => input.report.suite.shard?.total ?? null));
  if (totals.size > 1) {
    const listed = inputs.map((input) => `${input.file}: ${shardLabel(input.report)}`).join(', ');
    throw new ConfigError({ file: 'agentcheck merge' }, `the reports were split differently (${listed}); expected shards i/N of one N`, 'MERGE_SHARDING');
  }
  const bySharded = new Map<number, string>();
  for (const input of inputs) {
    const shard = input.report.suite.shard;
    if (!shard) continue;
    const earlier = bySharded.get(shard.index);
    if (earlier !== undefined) {
      throw new ConfigError(
        { file: input.file },
        `overlapping shards: shard ${shard.index}/${shard.total} is also ${earlier}; give each shard's report once`,
        'MERGE_OVERLAP',
      );
    }
    bySharded.set(shard.index, input.file);
  }
  return [...totals][0];
}

function assertNoOverlap(inputs: readonly ShardReport[]): void {
  const owner = new Map<string, string>();
  for (const input of inputs) {
    for (const row of input.report.scenarios) {
      const key = runKey(row);
      const earlier = owner.get(key);
      if (earlier !== undefined) {
        const what = `"${row.id}" [${row.variant}] repeat ${row.repeat}`;
        const hint = earlier === input.file ? 'twice in this report' : `also in ${earlier}`;
        throw new ConfigError(
          { file: input.file },
          `overlapping reports: ${what} is ${hint}; each scenario x variant x repeat must come from one shard`,
          'MERGE_OVERLAP',
        );
      }
      owner.set(key, input.file);
    }
  }
}

function shardLabel(report: Report): string {
  return report.suite.shard ? `shard ${report.suite.shard.index}/${report.suite.shard.total}` : 'unsharded';
}
