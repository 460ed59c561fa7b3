import type { Locator } from '../../config/assert-format.js';
import { absenceReferences, partialToolReference, toolReference } from '../check-references.js';
import type { ArgsMode } from '../args/args-mode.js';
import { callMismatch } from '../call-match.js';
import { checkArgsMode, checkParamsInParts, checkToolAndArgs, objectParams, PARAM } from '../check-params.js';
import { result, type Check } from './check.js';
import { summarizeCalls, times } from '../describe.js';
import { visibleCalls } from '../evidence.js';
import { isPlainObject } from '../args/json-value.js';
import { nestedCallsHint } from '../nested-calls-hint.js';

/** `tool_not_called: {tool, args, args_mode, nested}`. */
export interface ToolNotCalledParams {
  tool: string;
  args?: Record<string, unknown>;
  args_mode?: ArgsMode;
  nested?: boolean;
}

const KIND = 'tool_not_called';
const schema = objectParams({ tool: PARAM.tool, args: PARAM.args, args_mode: PARAM.argsMode, nested: PARAM.nested }, ['tool']);

/** The tool was never called (with `args`: never with matching arguments, default mode superset). */
export const toolNotCalled: Check<ToolNotCalledParams> = {
  kind: KIND,
  validate(params: unknown, locate: Locator): void {
    checkParamsInParts<ToolNotCalledParams>(schema, params, locate, [
      [['tool'], (p) => checkToolAndArgs({ tool: p.tool }, locate)],
      [['args'], (p) => checkToolAndArgs({ args: p.args }, locate)],
      [['args', 'args_mode'], (p) => checkArgsMode(p, locate)],
    ]);
  },
  // Without nested: true it passes on a tool only chains and plans call: the loader refuses that.
  references: (params) => absenceReferences(toolReference(params), params.nested),
  partialReferences: (params) => absenceReferences(partialToolReference(params, [], { args: true }), isPlainObject(params) ? params.nested : undefined),
  run(params, evidence, id) {
    const calls = visibleCalls(evidence, params.nested);
    const hits = calls.filter((call) => callMismatch(params, call, params.args_mode ?? 'superset') === null);
    const withArgs = params.args ? ' with matching arguments' : '';
    if (hits.length) {
      return result(
        KIND,
        id,
        'fail',
        `expected ${params.tool} not to be called${withArgs}; saw it ${times(hits.length)} (${summarizeCalls(calls)})`,
        hits.map((call) => call.span_id),
      );
    }
    // A tool the model may call that also ran inside a chain or plan: say so beside the pass.
    return result(
      KIND,
      id,
      'pass',
      `${params.tool} was not called${withArgs}; saw ${summarizeCalls(calls)}${nestedCallsHint([params.tool], params.nested, evidence)}`,
    );
  },
};
