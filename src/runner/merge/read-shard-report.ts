import { ConfigError } from '../../config/errors.js';
import type { Report } from '../report/report.js';
import { readReportFile } from './read-report-file.js';
import { MAX_SHARDS } from '../ci/max-shards.js';

/** A report.json to merge, with the path it was given as (for messages). */
export interface ShardReport {
  file: string;
  report: Report;
}

/**
 * Reads one report.json for merging: the checks every report reader makes (readReportFile:
 * schema, rows, summary against rows) plus the suite object merging compares. Anything else is
 * carried over as it was written.
 */
export function readShardReport(file: string, cwd: string): ShardReport {
  const report = readReportFile(file, cwd);
  if (!isObject(report.suite) || !Array.isArray(report.suite.variants) || !Array.isArray(report.suite.paths)) {
    throw new ConfigError({ file, path: 'suite' }, 'expected the suite object of agentcheck run (paths, config, variants, repeat, shard, ...)');
  }
  const shard = report.suite.shard;
  if (
    shard !== null &&
    (!isObject(shard) ||
      !Number.isInteger(shard.index) ||
      !Number.isInteger(shard.total) ||
      shard.index < 1 ||
      shard.index > shard.total ||
      shard.total > MAX_SHARDS)
  ) {
    throw new ConfigError({ file, path: 'suite.shard' }, `expected null or {index, total} with 1 <= index <= total <= ${MAX_SHARDS}`);
  }
  return { file, report };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- untyped JSON from disk, read field by field
function isObject(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
