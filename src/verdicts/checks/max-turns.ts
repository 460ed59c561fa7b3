import type { Locator } from '../../config/assert-format.js';
import { describeValue } from '../../config/describe-value.js';
import { result, type Check } from './check.js';
import { plural } from '../describe.js';

const KIND = 'max_turns';

/** `max_turns: N`: the run made at most N model calls (chat spans). */
export const maxTurns: Check<number> = {
  kind: KIND,
  validate(params: unknown, locate: Locator): void {
    // "expected ..., got <kind> <value>", as schema type errors say it: a dataset row's hint reads that shape.
    if (!Number.isInteger(params) || (params as number) < 0)
      throw locate([], `expected a whole number of model calls (e.g. max_turns: 4), got ${describeValue(params)}`);
  },
  run(max, evidence, id) {
    const seen = plural(evidence.turns, 'model call');
    return evidence.turns <= max
      ? result(KIND, id, 'pass', `${seen} (at most ${max} expected)`, evidence.chat_span_ids)
      : result(KIND, id, 'fail', `expected at most ${plural(max, 'model call')}; saw ${seen}`, evidence.chat_span_ids);
  },
};
