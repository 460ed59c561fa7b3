import type { Report, RowStatus, ScenarioRow } from '../../../src/runner/report/report.js';
import { report, row } from '../reporters/fixture-report.js';

const P: RowStatus = 'pass';
const F: RowStatus = 'fail';

/**
 * Two variants x four scenarios x three repeats, outcomes chosen so every statistic can be
 * worked out by hand (see compute-stats.test.ts):
 *
 *   scenario  base       lean
 *   s1        P P P      P P P
 *   s2        P P F      F F F
 *   s3        F F F      P F F
 *   s4        P P P      error, not_run, skipped
 *
 * Base durations are 10, 20, ..., 120 ms in row order; usage is set on every counted row and on
 * the not_run one (a run cut off by an interrupt keeps what it recorded).
 * Every row expects create_refund and (by the fixture default) calls lookup_order and create_refund.
 */
export function pairedReport(): Report {
  const plan: Array<[string, RowStatus[], RowStatus[]]> = [
    ['s1', [P, P, P], [P, P, P]],
    ['s2', [P, P, F], [F, F, F]],
    ['s3', [F, F, F], [P, F, F]],
    ['s4', [P, P, P], ['error', 'not_run', 'skipped']],
  ];
  const rows: ScenarioRow[] = [];
  let duration = 0;
  for (const [name, base, lean] of plan) {
    base.forEach((status, repeat) => {
      duration += 10;
      rows.push(
        row('p.scenarios.yaml', name, {
          expected_tools: ['create_refund'],
          variant: 'base',
          repeat,
          status,
          duration_ms: duration,
          usage: { input_tokens: 100, output_tokens: duration },
        }),
      );
    });
    lean.forEach((status, repeat) => {
      const counted = status === 'pass' || status === 'fail' || status === 'error';
      rows.push(
        row('p.scenarios.yaml', name, {
          variant: 'lean',
          repeat,
          expected_tools: ['create_refund'],
          status,
          duration_ms: counted ? 5 : 9999,
          turns: counted ? 3 : 7,
          // The not_run row is one cut off by an interrupt: it keeps its usage and test_run, and still does not count.
          ...(counted
            ? { usage: { input_tokens: 50, output_tokens: 10 } }
            : status === 'not_run'
              ? { usage: { input_tokens: 999, output_tokens: 999 } }
              : { test_run: null }),
        }),
      );
    });
  }
  const built = report(rows);
  return { ...built, suite: { ...built.suite, variants: ['base', 'lean'], repeat: 3 } };
}
