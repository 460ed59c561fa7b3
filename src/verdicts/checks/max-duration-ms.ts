import type { Locator } from '../../config/assert-format.js';
import { describeValue } from '../../config/describe-value.js';
import { result, type Check } from './check.js';

const KIND = 'max_duration_ms';

/** `max_duration_ms: N`: budget on the invoke's wall time (the root span's duration). */
export const maxDurationMs: Check<number> = {
  kind: KIND,
  validate(params: unknown, locate: Locator): void {
    if (typeof params !== 'number' || !(params >= 0) || !Number.isFinite(params)) {
      // "expected ..., got <kind> <value>", as schema type errors say it: a dataset row's hint reads that shape.
      throw locate([], `expected a number of milliseconds (e.g. max_duration_ms: 5000), got ${describeValue(params)}`);
    }
  },
  run(max, evidence, id) {
    const ids = evidence.root ? [evidence.root.span_id] : [];
    const duration = toMicroseconds(evidence.duration_ms);
    const passed = duration <= max;
    const took = durationText(duration, passed);
    return passed
      ? result(KIND, id, 'pass', `the invoke took ${took} ms (at most ${max} expected)`, ids)
      : result(KIND, id, 'fail', `expected the invoke to take at most ${max} ms; it took ${took} ms`, ids);
  },
};

/**
 * `ms` rounded to the microsecond (0.001 ms), the resolution budgets are compared at
 * (docs/verdicts.md): a root span's duration is a float subtraction (end minus start), whose
 * noise (7.000000000000001) must never fail a budget of 7.
 */
function toMicroseconds(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

/**
 * The duration as both reasons say it, with one decimal (`7.0`, `7.1`), rounded toward the
 * verdict (down when it passed, up when it failed), so a failed 7.02 ms against at most 7 never
 * reads "it took 7.0 ms".
 */
function durationText(ms: number, passed: boolean): string {
  // The epsilon keeps a float's last bit (1.1 * 10 is 11.000000000000002) from moving a tenth.
  const tenths = passed ? Math.floor(ms * 10 + 1e-9) : Math.ceil(ms * 10 - 1e-9);
  return (tenths / 10).toFixed(1);
}
