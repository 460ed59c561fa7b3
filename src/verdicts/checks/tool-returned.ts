import type { Locator } from '../../config/assert-format.js';
import { describeMismatch, matchDocument } from '../args/match-document.js';
import { toolReference } from '../check-references.js';
import { validateExpectedValue } from '../args/validate-expected.js';
import { checkSchema, objectParams, PARAM } from '../check-params.js';
import { result, type Check } from './check.js';
import { show, summarizeCalls } from '../describe.js';
import { visibleCalls } from '../evidence.js';
import { toolNameMatcher, validateToolName } from '../tool-name.js';

/** How an expected object result is compared with the returned one: the argument modes, without `ignore`. */
export const RESULT_MODES = ['exact', 'subset', 'superset'] as const;

/** `tool_returned: {tool, result, result_mode, nested}`. */
export interface ToolReturnedParams {
  tool: string;
  /** Expected result value (literal or matchers), compared with the parsed result. */
  result?: unknown;
  /** For an object `result`: which keys must match, as `args_mode` does for arguments (default superset). */
  result_mode?: (typeof RESULT_MODES)[number];
  nested?: boolean;
}

const KIND = 'tool_returned';
const schema = objectParams({ tool: PARAM.tool, result: PARAM.any, result_mode: { enum: [...RESULT_MODES] }, nested: PARAM.nested }, ['tool']);

/** The tool was called and at least one call returned a result (outcome ok), matching `result` when given. */
export const toolReturned: Check<ToolReturnedParams> = {
  kind: KIND,
  validate(params: unknown, locate: Locator): void {
    checkSchema(schema, params, locate);
    const p = params as ToolReturnedParams;
    validateToolName(p.tool, ['tool'], locate);
    if (p.result !== undefined) validateExpectedValue(p.result, ['result'], locate);
    if (p.result_mode !== undefined && p.result === undefined) throw locate(['result_mode'], 'result_mode compares a result: give "result" too');
  },
  references: (params) => toolReference(params),
  run(params, evidence, id) {
    const calls = visibleCalls(evidence, params.nested);
    const isTool = toolNameMatcher(params.tool);
    const named = calls.filter((call) => isTool(call.name));
    const ids = named.map((call) => call.span_id);
    if (named.length === 0) {
      return result(KIND, id, 'fail', `expected ${params.tool} to return a result; it was never called; saw ${summarizeCalls(calls)}`);
    }
    const returned = named.filter((call) => call.outcome === 'ok');
    if (returned.length === 0) {
      const endings = named.map((call) => (call.error_type ? `${call.outcome} (${call.error_type})` : call.outcome)).join(', ');
      return result(KIND, id, 'fail', `expected ${params.tool} to return a result; its calls ended: ${endings}`, ids);
    }
    if (params.result === undefined) {
      return result(
        KIND,
        id,
        'pass',
        `${params.tool} returned a result`,
        returned.map((call) => call.span_id),
      );
    }
    let why = '';
    for (const call of returned) {
      const mismatch = matchDocument(params.result, call.result, params.result_mode ?? 'superset');
      if (!mismatch) return result(KIND, id, 'pass', `${params.tool} returned ${show(call.result)}`, [call.span_id]);
      why ||= describeMismatch(mismatch);
    }
    return result(KIND, id, 'fail', `expected ${params.tool} to return ${show(params.result)}; it returned ${show(returned[0].result)} (${why})`, ids);
  },
};
