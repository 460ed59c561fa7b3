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
    const took = Math.round(evidence.duration_ms * 10) / 10;
    return evidence.duration_ms <= max
      ? result(KIND, id, 'pass', `the invoke took ${took} ms (at most ${max} expected)`, ids)
      : result(KIND, id, 'fail', `expected the invoke to take at most ${max} ms; it took ${took} ms`, ids);
  },
};
