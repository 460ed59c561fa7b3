import type { Locator } from '../../config/assert-format.js';
import { describeCallError } from '../call-error.js';
import { checkSchema, objectParams, PARAM } from '../check-params.js';
import { result, type Check } from './check.js';
import { plural } from '../describe.js';
import { compileErrorTokens } from '../error-tokens.js';
import { visibleCalls } from '../evidence.js';

/** `no_tool_errors: {nested, error_tokens}`. */
export interface NoToolErrorsParams {
  nested?: boolean;
  error_tokens?: string[];
}

const KIND = 'no_tool_errors';
const schema = objectParams({ nested: PARAM.nested, error_tokens: { type: 'array', items: { type: 'string', minLength: 1 } } });

/**
 * No call failed: no span marked as an error and no error token in a result (denied and
 * pending calls are not errors). Tokens: the check's own, else the scenario's, else the defaults.
 */
export const noToolErrors: Check<NoToolErrorsParams> = {
  kind: KIND,
  validate(params: unknown, locate: Locator): void {
    checkSchema(schema, params ?? {}, locate);
  },
  run(params, evidence, id) {
    const tokens = compileErrorTokens(params?.error_tokens ?? evidence.error_tokens ?? undefined);
    const calls = visibleCalls(evidence, params?.nested);
    const failed = calls.flatMap((call, index) => {
      const why = describeCallError(call, tokens);
      return why ? [{ call, index, why }] : [];
    });
    if (failed.length === 0) return result(KIND, id, 'pass', `no tool errors in ${plural(calls.length, 'call')}`);
    const first = failed[0];
    const more = failed.length > 1 ? ` (and ${plural(failed.length - 1, 'more error')})` : '';
    return result(
      KIND,
      id,
      'fail',
      `expected no tool errors; call ${first.index + 1} (${first.call.name}) failed: ${first.why}${more}`,
      failed.map((item) => item.call.span_id),
    );
  },
};
