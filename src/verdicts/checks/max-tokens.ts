import type { Locator } from '../../config/assert-format.js';
import { describeValue } from '../../config/describe-value.js';
import { atLeastOne, checkSchema, numberOrObjectParams, PARAM } from '../check-params.js';
import { result, type Check } from './check.js';
import { plural } from '../describe.js';

/** `max_tokens: N` (input + output) or `{total, input, output}`. */
export type MaxTokensParams = number | { total?: number; input?: number; output?: number };

const KIND = 'max_tokens';
const schema = numberOrObjectParams('a whole number of tokens (e.g. max_tokens: 2000)', { total: PARAM.count, input: PARAM.count, output: PARAM.count });

/** Budget: token usage of the run (root span totals, else the sum over model calls) within limits. */
export const maxTokens: Check<MaxTokensParams> = {
  kind: KIND,
  validate(params: unknown, locate: Locator): void {
    if (typeof params === 'number') {
      if (!Number.isInteger(params) || params < 0) throw locate([], `expected a whole number of tokens, got ${describeValue(params)}`);
      return;
    }
    checkSchema(schema, params, locate);
    atLeastOne(params as Record<string, unknown>, ['total', 'input', 'output'], locate);
  },
  run(params, evidence, id) {
    const limits = typeof params === 'number' ? { total: params } : params;
    const { input_tokens: input, output_tokens: output } = evidence.usage;
    const used = { total: input + output, input, output };
    const ids = evidence.root ? [evidence.root.span_id] : [];
    for (const which of ['total', 'input', 'output'] as const) {
      const limit = limits[which];
      if (limit !== undefined && used[which] > limit) {
        return result(KIND, id, 'fail', `expected at most ${plural(limit, `${which} token`)}; used ${used[which]} (input ${input}, output ${output})`, ids);
      }
    }
    return result(KIND, id, 'pass', `used ${plural(used.total, 'token')} (input ${input}, output ${output}) within the budget`, ids);
  },
};
