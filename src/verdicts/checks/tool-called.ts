import type { Locator } from '../../config/assert-format.js';
import { toolReference } from '../check-references.js';
import type { ArgsMode } from '../args/args-mode.js';
import { callMismatch, closestMismatch, sameTool } from '../call-match.js';
import { checkSchema, checkToolAndArgs, objectParams, PARAM } from '../check-params.js';
import { result, type Check } from './check.js';
import { summarizeCalls, times } from '../describe.js';
import { visibleCalls } from '../evidence.js';

/** `tool_called: {tool, min, max, args, args_mode, nested}`. */
export interface ToolCalledParams {
  tool: string;
  min?: number;
  max?: number;
  args?: Record<string, unknown>;
  args_mode?: ArgsMode;
  nested?: boolean;
}

const KIND = 'tool_called';
const schema = objectParams(
  { tool: PARAM.tool, min: PARAM.count, max: PARAM.count, args: PARAM.args, args_mode: PARAM.argsMode, nested: PARAM.nested },
  ['tool'],
);

/** The tool was called between `min` (default 1) and `max` times with matching arguments (default mode superset). */
export const toolCalled: Check<ToolCalledParams> = {
  kind: KIND,
  validate(params: unknown, locate: Locator): void {
    checkSchema(schema, params, locate);
    const p = params as ToolCalledParams;
    checkToolAndArgs(p, locate);
    if (p.max !== undefined && p.max < (p.min ?? 1)) throw locate(['max'], `max (${p.max}) is below min (${p.min ?? 1})`);
  },
  references: (params) => toolReference(params),
  run(params, evidence, id) {
    const calls = visibleCalls(evidence, params.nested);
    const mode = params.args_mode ?? 'superset';
    const matching = calls.filter((call) => callMismatch(params, call, mode) === null);
    const min = params.min ?? 1;
    const withArgs = params.args && mode !== 'ignore' ? ' with matching arguments' : '';
    if (matching.length < min) {
      const named = calls.filter((call) => sameTool(params, call));
      return result(KIND, id, 'fail',
        `expected ${params.tool} to be called at least ${times(min)}${withArgs}; saw ${summarizeCalls(calls)}${closestMismatch(params, named, mode, calls)}`,
        named.map((call) => call.span_id));
    }
    const ids = matching.map((call) => call.span_id);
    if (params.max !== undefined && matching.length > params.max) {
      return result(KIND, id, 'fail', `expected ${params.tool} to be called at most ${times(params.max)}${withArgs}; saw it ${times(matching.length)}`, ids);
    }
    const bounds = params.max === undefined ? `at least ${min}` : `${min} to ${params.max}`;
    return result(KIND, id, 'pass', `${params.tool} was called ${times(matching.length)}${withArgs} (expected ${bounds})`, ids);
  },
};
