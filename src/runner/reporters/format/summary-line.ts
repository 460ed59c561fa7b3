import { nounFor, plural } from '../../../verdicts/describe.js';
import type { Report } from '../../report/report.js';
import { runShape } from './run-shape.js';
import { missingShards } from './run-verdict.js';

/** `3.2 s` (or `2 min 5 s` past a minute). */
export function formatSeconds(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/**
 * `12 scenarios: 10 passed, 1 failed, 1 errored (3.2 s)`; with variants or repeats the
 * count is of runs (`24 runs (4 scenarios x 3 variants x 2 repeats): ...`, or `21 runs (3 scenarios,
 * 3 variants, 3 repeats: not every combination)` when only some pairs ran). Not run and
 * skipped appear only when non-zero, so the common line stays short; so do stray errors
 * (`1 stray error`: thrown where no code awaited them, they fail the run).
 */
export function summaryLine(report: Readonly<Report>): string {
  const { summary } = report;
  const shape = runShape(report);
  const factors = [plural(shape.scenarios, 'scenario')];
  if (shape.variants.length > 1) factors.push(`${shape.variants.length} variants`);
  if (shape.repeats > 1) factors.push(`${shape.repeats} repeats`);
  // A product only when it is one: --only-failed reruns some scenario x variant pairs, not all.
  const product = shape.scenarios * Math.max(1, shape.variants.length) * Math.max(1, shape.repeats) === summary.total;
  const subject =
    factors.length > 1
      ? `${summary.total} runs (${factors.join(product ? ' x ' : ', ')}${product ? '' : ': not every combination'})`
      : plural(summary.total, 'scenario');
  const expected = report.scenarios.filter((row) => row.status === 'pass' && row.expect_failure).length;
  const unexpecting = report.scenarios.filter((row) => row.status === 'pass' && row.no_expectation).length;
  const qualifiers = [
    ...(expected ? [`${expected} as ${expected === 1 ? 'an expected failure' : 'expected failures'}`] : []),
    ...(unexpecting ? [`${unexpecting} with no expectation`] : []),
  ];
  const parts = [`${summary.passed} passed${qualifiers.length ? ` (${qualifiers.join(', ')})` : ''}`, `${summary.failed} failed`, `${summary.errored} errored`];
  if (summary.not_run) parts.push(`${summary.not_run} not run`);
  if (summary.skipped) parts.push(`${summary.skipped} skipped`);
  const stray = report.stray_errors?.count;
  // Not a row's: an error no code awaited fails the run while its rows may all pass.
  if (stray) parts.push(`${stray} stray ${nounFor(stray, 'error')}`);
  const interrupted = report.interrupted ? ', interrupted' : '';
  const missing = missingShards(report);
  const shards = missing.length ? `, shard${missing.length > 1 ? 's' : ''} ${missing.join(', ')} missing` : '';
  return `${subject}: ${parts.join(', ')} (${formatSeconds(report.duration_ms)}${interrupted}${shards})`;
}
