import { memoryLocator, type Locator } from '../../config/assert-format.js';
import { throwConfigErrors } from '../../config/errors.js';
import { partialToolReference, toolReference } from '../check-references.js';
import type { ArgsMode } from '../args/args-mode.js';
import { callMismatch, closestMismatch, sameTool } from '../call-match.js';
import { checkArgsMode, checkToolAndArgs, objectParams, paramsInParts, PARAM } from '../check-params.js';
import { result, type Check } from './check.js';
import { summarizeCalls, times } from '../describe.js';
import { visibleCalls } from '../evidence.js';
import type { ToolCall } from '../evidence-types.js';
import { nestedCallsHint } from '../nested-calls-hint.js';
import { REQUEST_PARAM, requestMismatch, validateExpectedRequest, type ExpectedRequest } from '../request-match.js';

/** `tool_called: {tool, min, max, args, args_mode, request, nested}`. */
export interface ToolCalledParams {
  tool: string;
  min?: number;
  max?: number;
  args?: Record<string, unknown>;
  args_mode?: ArgsMode;
  /** What the http request the call sent must hold (method, url, headers, json, body). */
  request?: ExpectedRequest;
  nested?: boolean;
}

const KIND = 'tool_called';
const schema = objectParams(
  { tool: PARAM.tool, min: PARAM.count, max: PARAM.count, args: PARAM.args, args_mode: PARAM.argsMode, request: REQUEST_PARAM, nested: PARAM.nested },
  ['tool'],
);

/** The params' problems, each part on its own (checkParamsInParts), and which parts are well-formed. */
function parts(params: unknown, locate: Locator) {
  return paramsInParts<ToolCalledParams>(schema, params, locate, [
    [['tool'], (p) => checkToolAndArgs({ tool: p.tool }, locate)],
    [['args'], (p) => checkToolAndArgs({ args: p.args }, locate)],
    [['args', 'args_mode'], (p) => checkArgsMode(p, locate)],
    [['request'], (p) => p.request && validateExpectedRequest(p.request, ['request'], locate)],
    [
      ['min', 'max'],
      (p) => {
        // At least 0 calls holds for every run: min: 0 means something only beside a max.
        if (p.min === 0 && p.max === undefined) {
          throw locate(
            ['min'],
            'min: 0 without max passes on every run (0 or more calls); give max too (min: 0, max: 2 means at most 2 calls), or use tool_not_called for a tool that must not be called',
          );
        }
        if (p.max !== undefined && p.max < (p.min ?? 1)) {
          // max: 0 means "never called": min defaults to 1, so say how to write that.
          const hint = p.max === 0 && p.min === undefined ? '; for a tool that must not be called use tool_not_called, or give min: 0' : '';
          throw locate(['max'], `max (${p.max}) is below min (${p.min ?? 1})${hint}`);
        }
      },
    ],
  ]);
}

/** The tool was called between `min` (default 1) and `max` times with matching arguments (default mode superset) and request. */
export const toolCalled: Check<ToolCalledParams> = {
  kind: KIND,
  validate(params: unknown, locate: Locator): void {
    throwConfigErrors(parts(params, locate).problems);
  },
  references: (params) => toolReference(params),
  partialReferences: (params) => partialToolReference(params, [], { args: true, request: parts(params, memoryLocator(KIND)).wellFormed('request') }),
  run(params, evidence, id) {
    const calls = visibleCalls(evidence, params.nested);
    const mode = params.args_mode ?? 'superset';
    const withRequest = (call: ToolCall) => !params.request || requestMismatch(params.request, call) === null;
    const matching = calls.filter((call) => callMismatch(params, call, mode) === null && withRequest(call));
    const min = params.min ?? 1;
    const args = params.args && mode !== 'ignore' ? ['arguments'] : [];
    const withArgs = args.length || params.request ? ` with matching ${[...args, ...(params.request ? ['request'] : [])].join(' and ')}` : '';
    if (matching.length < min) {
      const named = calls.filter((call) => sameTool(params, call));
      return result(
        KIND,
        id,
        'fail',
        `expected ${params.tool} to be called at least ${times(min)}${withArgs}; saw ${summarizeCalls(calls)}${closest(params, named, mode, calls)}${nestedCallsHint([params.tool], params.nested, evidence)}`,
        named.map((call) => call.span_id),
      );
    }
    const ids = matching.map((call) => call.span_id);
    if (params.max !== undefined && matching.length > params.max) {
      return result(KIND, id, 'fail', `expected ${params.tool} to be called at most ${times(params.max)}${withArgs}; saw it ${times(matching.length)}`, ids);
    }
    const bounds = params.max === undefined ? `at least ${min}` : `${min} to ${params.max}`;
    return result(KIND, id, 'pass', `${params.tool} was called ${times(matching.length)}${withArgs} (expected ${bounds})`, ids);
  },
};

/** The closest call's argument difference, else (arguments matching) its request difference. */
function closest(params: ToolCalledParams, named: ToolCall[], mode: ArgsMode, calls: ToolCall[]): string {
  const byArgs = closestMismatch(params, named, mode, calls);
  if (byArgs || !params.request) return byArgs;
  for (const call of named) {
    const why = requestMismatch(params.request, call);
    if (why) return `; closest: ${call.name} call ${calls.indexOf(call) + 1}: ${why}`;
  }
  return '';
}
