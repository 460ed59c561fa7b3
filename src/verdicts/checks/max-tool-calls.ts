import type { Locator } from '../../config/assert-format.js';
import { describeValue } from '../../config/describe-value.js';
import { checkSchema, numberOrObjectParams, PARAM } from '../check-params.js';
import { result, type Check } from './check.js';
import { plural, summarizeCalls } from '../describe.js';
import { visibleCalls } from '../evidence.js';

/** `max_tool_calls: N` or `{max, nested}`. */
export type MaxToolCallsParams = number | { max: number; nested?: boolean };

const KIND = 'max_tool_calls';
const schema = numberOrObjectParams('a whole number of tool calls (e.g. max_tool_calls: 3)', { max: PARAM.count, nested: PARAM.nested }, ['max']);

/** Budget: the run made at most N tool calls (the digest's calls; plan/chain calls too with nested). */
export const maxToolCalls: Check<MaxToolCallsParams> = {
  kind: KIND,
  validate(params: unknown, locate: Locator): void {
    if (typeof params === 'number') {
      if (!Number.isInteger(params) || params < 0) throw locate([], `expected a whole number of tool calls, got ${describeValue(params)}`);
      return;
    }
    checkSchema(schema, params, locate);
  },
  run(params, evidence, id) {
    const { max, nested } = typeof params === 'number' ? { max: params, nested: false } : params;
    const calls = visibleCalls(evidence, nested);
    const ids = calls.map((call) => call.span_id);
    return calls.length <= max
      ? result(KIND, id, 'pass', `${plural(calls.length, 'tool call')} (at most ${max} expected)`, ids)
      : result(KIND, id, 'fail', `expected at most ${plural(max, 'tool call')}; saw ${calls.length} (${summarizeCalls(calls)})`, ids);
  },
};
