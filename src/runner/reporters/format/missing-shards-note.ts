import type { Report } from '../../report/report.js';
import { missingShards } from './run-verdict.js';

/**
 * `merged 1 of 3 shards; missing shards 2, 3 (their scenarios are not in the report)`: what
 * merge's stderr, junit.xml and the GitHub annotation say of a merge missing shards (docs/ci.md);
 * undefined when none is missing.
 */
export function missingShardsNote(report: Readonly<Report>): string | undefined {
  const missing = missingShards(report);
  if (!missing.length || !report.merged) return undefined;
  const total = report.merged.inputs[0]?.shard?.total ?? missing.length;
  return `merged ${total - missing.length} of ${total} shards; missing shard${missing.length > 1 ? 's' : ''} ${missing.join(', ')} (their scenarios are not in the report)`;
}
