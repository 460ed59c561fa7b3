import type { ScenarioRow } from '../report/report.js';
import { madeChoices } from './made-choices.js';
import { isCounted } from './outcomes.js';
import { passAtK, passHatK } from './pass-at-k.js';
import { distribution } from './percentile.js';
import type { PassAtK, ScenarioOutcome, VariantStatistics } from './stats-types.js';
import { toolSelection } from './tool-selection.js';
import { wilsonInterval } from './wilson.js';

/**
 * One variant's statistics from its rows and its per-scenario outcomes. Only counted rows
 * (pass, fail, error) enter any number; turns and tokens only those whose run made choices
 * (madeChoices: a run that never reached the model would pull the means to 0), tokens from rows
 * that carry usage. Durations count every counted run: its wall time was spent either way.
 */
export function variantStatistics(rows: readonly ScenarioRow[], outcomes: readonly ScenarioOutcome[]): VariantStatistics {
  const counted = rows.filter(isCounted);
  const passed = counted.filter((row) => row.status === 'pass').length;
  const choosing = counted.filter(madeChoices);
  const withUsage = choosing.flatMap((row) => (row.usage ? [row.usage] : []));
  return {
    runs: counted.length,
    passed,
    pass_rate: counted.length ? passed / counted.length : null,
    pass_rate_ci: wilsonInterval(passed, counted.length),
    pass_k: passKCurve(outcomes),
    labels: {
      stable_pass: outcomes.filter((o) => o.label === 'stable-pass').length,
      flaky: outcomes.filter((o) => o.label === 'flaky').length,
      stable_fail: outcomes.filter((o) => o.label === 'stable-fail').length,
    },
    tool_selection: toolSelection(counted),
    turns: distribution(choosing.map((row) => row.turns)),
    tokens: {
      input: distribution(withUsage.map((usage) => usage.input_tokens)),
      output: distribution(withUsage.map((usage) => usage.output_tokens)),
      total: distribution(withUsage.map((usage) => usage.input_tokens + usage.output_tokens)),
    },
    duration_ms: distribution(counted.map((row) => row.duration_ms)),
  };
}

/**
 * pass@k and pass^k for k = 1 .. the most repeats any scenario has, each the mean over the
 * scenarios with at least k counted repeats (a scenario with fewer cannot draw k runs).
 */
export function passKCurve(outcomes: readonly ScenarioOutcome[]): PassAtK[] {
  const most = outcomes.reduce((max, outcome) => Math.max(max, outcome.runs), 0);
  const curve: PassAtK[] = [];
  for (let k = 1; k <= most; k++) {
    const eligible = outcomes.filter((outcome) => outcome.runs >= k);
    const sumAt = eligible.reduce((sum, o) => sum + passAtK(o.runs, o.passed, k), 0);
    const sumHat = eligible.reduce((sum, o) => sum + passHatK(o.runs, o.passed, k), 0);
    curve.push({ k, pass_at_k: sumAt / eligible.length, pass_hat_k: sumHat / eligible.length, scenarios: eligible.length });
  }
  return curve;
}
