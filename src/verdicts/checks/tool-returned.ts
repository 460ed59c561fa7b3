import type { Locator } from '../../config/assert-format.js';
import { describeMismatch, matchDocument } from '../args/match-document.js';
import { partialToolReference, toolReference } from '../check-references.js';
import { validateExpectedValue } from '../args/validate-expected.js';
import { checkParamsInParts, objectParams, PARAM } from '../check-params.js';
import { result, type Check } from './check.js';
import { callError, describeCallError, returnedWithoutError } from '../call-error.js';
import { show, summarizeCalls, times } from '../describe.js';
import { compileErrorTokens, findErrorToken, type ErrorToken } from '../error-tokens.js';
import { visibleCalls } from '../evidence.js';
import { nestedCallsHint } from '../nested-calls-hint.js';
import type { ToolCall } from '../evidence-types.js';
import { parseSlashRegex } from '../../config/safe-regex.js';
import { toolNameAsMatched, toolNameMatcher, validateToolName } from '../tool-name.js';

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

/**
 * The tool was called and a call returned without error (outcome ok, no error token: the digest's
 * `returned`), matching `result` when given. An expected `result` that itself holds an error token
 * (`{ok: false}`) asks for that error answer, so calls whose result holds one are compared too.
 */
export const toolReturned: Check<ToolReturnedParams> = {
  kind: KIND,
  validate(params: unknown, locate: Locator): void {
    checkParamsInParts<ToolReturnedParams>(schema, params, locate, [
      [['tool'], (p) => validateToolName(p.tool, ['tool'], locate)],
      [['result'], (p) => p.result !== undefined && validateExpectedValue(p.result, ['result'], locate)],
      [
        ['result', 'result_mode'],
        (p) => {
          if (p.result_mode !== undefined && p.result === undefined) throw locate(['result_mode'], 'result_mode compares a result: give "result" too');
        },
      ],
    ]);
  },
  references: (params) => toolReference(params),
  partialReferences: (params) => partialToolReference(params),
  run(params, evidence, id) {
    const calls = visibleCalls(evidence, params.nested);
    const isTool = toolNameMatcher(params.tool);
    const named = calls.filter((call) => isTool(call.raw_name));
    const ids = named.map((call) => call.span_id);
    if (named.length === 0) {
      const hint = nestedCallsHint([params.tool], params.nested, evidence);
      return result(KIND, id, 'fail', `expected ${params.tool} to return a result; it was never called; saw ${summarizeCalls(calls)}${hint}`);
    }
    const tokens = compileErrorTokens(evidence.error_tokens ?? undefined);
    const wantsError = params.result !== undefined && findErrorToken(resultText(params.result), tokens) !== null;
    const returned = named.filter((call) => returnedWithoutError(call, tokens) || (wantsError && call.outcome === 'ok'));
    if (returned.length === 0) {
      const expected = params.result === undefined ? 'a result without error' : show(params.result);
      // An error answer left out only because the expected result does not name an error: say why.
      const hint =
        params.result !== undefined && named.some((call) => call.outcome === 'ok')
          ? ' (an error result is compared only with an expected result that names an error, such as "ok": false)'
          : '';
      return result(
        KIND,
        id,
        'fail',
        `expected ${params.tool} to return ${expected}; it was called ${times(named.length)}: ${endings(named, params.tool, tokens)}${hint}`,
        ids,
      );
    }
    if (params.result === undefined) {
      return result(
        KIND,
        id,
        'pass',
        `${toolNameAsMatched(params.tool, returned)} returned a result`,
        returned.map((call) => call.span_id),
      );
    }
    const mismatched: Mismatched[] = [];
    for (const call of returned) {
      const mismatch = matchDocument(params.result, call.result, params.result_mode ?? 'superset');
      if (mismatch) {
        mismatched.push({ call, why: describeMismatch(mismatch) });
        continue;
      }
      const token = callError(call, tokens);
      const tool = toolNameAsMatched(params.tool, [call]);
      return result(KIND, id, 'pass', `${tool} returned ${show(call.result)}${token ? ` (an error result: ${token})` : ''}`, [call.span_id]);
    }
    return result(KIND, id, 'fail', `expected ${params.tool} to return ${show(params.result)}; ${whatReturned(mismatched, params.tool)}`, ids);
  },
};

/** Calls listed in a reason before "and N more". */
const MAX_LISTED = 5;

/** A call that returned, and how its result differs from the expected one. */
interface Mismatched {
  call: ToolCall;
  why: string;
}

/**
 * What the calls returned instead: a literal tool's first result, `it returned {...} (at id: ...)`;
 * a /regex/ matches several tools, so each call is named with its result (`create_refund returned
 * {...} (...), create_note returned {...} (...)`), up to MAX_LISTED.
 */
function whatReturned(mismatched: readonly Mismatched[], tool: string): string {
  if (parseSlashRegex(tool) === null) return `it returned ${show(mismatched[0].call.result)} (${mismatched[0].why})`;
  return listUpTo(mismatched, ({ call, why }) => `${call.name} returned ${show(call.result)} (${why})`);
}

/** `items` said one by one, joined by commas: the first MAX_LISTED, then `, and N more`. */
function listUpTo<T>(items: readonly T[], say: (item: T, index: number) => string): string {
  const more = items.length > MAX_LISTED ? `, and ${items.length - MAX_LISTED} more` : '';
  return items.slice(0, MAX_LISTED).map(say).join(', ') + more;
}

/** How each call ended: "call 1 denied, call 2 failed: not_in_channel"; a /regex/ tool adds each call's name. */
function endings(calls: readonly ToolCall[], tool: string, tokens: readonly ErrorToken[]): string {
  const named = parseSlashRegex(tool) !== null;
  return listUpTo(calls, (call, index) => {
    const which = `call ${index + 1}${named ? ` (${call.name})` : ''}`;
    if (call.outcome === 'denied') return `${which} denied`;
    if (call.outcome === 'pending') return `${which} pending approval`;
    const why = describeCallError(call, tokens);
    return why ? `${which} failed: ${why}` : `${which} returned`;
  });
}

/** An expected result as error tokens read a returned one: a string itself, anything else as JSON. */
function resultText(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}
