import type { Locator } from '../../config/assert-format.js';
import { collectConfigErrors, throwConfigErrors, type ConfigError } from '../../config/errors.js';
import type { PathSegments } from '../../config/source.js';
import { isPlainObject } from '../args/json-value.js';
import { wellFormedToolName, type CheckReference } from '../check-references.js';
import { checkParamsInParts, objectParams, PARAM } from '../check-params.js';
import { result, type Check } from './check.js';
import type { ToolCall } from '../evidence-types.js';
import { summarizeCalls } from '../describe.js';
import { visibleCalls } from '../evidence.js';
import { nestedCallsHint } from '../nested-calls-hint.js';
import { coversToolName, sameToolName, toolNameMatcher, validateToolName } from '../tool-name.js';

/** `tool_order: {before: [a, b], after: c, nested}`. */
export interface ToolOrderParams {
  before: string[];
  after: string;
  nested?: boolean;
}

const KIND = 'tool_order';
const schema = objectParams({ before: { type: 'array', minItems: 1, items: PARAM.tool }, after: PARAM.tool, nested: PARAM.nested }, ['before', 'after']);

/**
 * A partial order: every call of each `before` tool precedes the first call of `after`, in an
 * earlier model response when both are the model's (calls of one response run in parallel).
 * Each tool involved must have been called (an order between calls that never happened
 * proves nothing).
 */
export const toolOrder: Check<ToolOrderParams> = {
  kind: KIND,
  validate(params: unknown, locate: Locator): void {
    checkParamsInParts<ToolOrderParams>(schema, params, locate, [
      [
        ['before'],
        (p) => {
          const problems: ConfigError[] = [];
          p.before.forEach((name, index) => collectConfigErrors(problems, () => validateToolName(name, ['before', index], locate)));
          throwConfigErrors(problems);
        },
      ],
      [['after'], (p) => validateToolName(p.after, ['after'], locate)],
      [
        ['before', 'after'],
        (p) => {
          // A tool cannot run before its own first call: such a check only passes for exactly one
          // call. The same name is caught, and a name covering the after tool's (write_note before
          // mcp__notes__write_note); whether two /regex/ names overlap is not reasoned about.
          const self = p.before.findIndex((name) => sameToolName(name, p.after) || coversToolName(name, p.after));
          if (self !== -1) {
            throw locate(
              ['before', self],
              `${p.before[self]} is also the after tool; a tool cannot run before its own first call (for exactly one call, use tool_called with max: 1)`,
            );
          }
        },
      ],
    ]);
  },
  references: (params) => [
    ...params.before.map((name, index): CheckReference => ({ kind: 'tool', at: ['before', index], name })),
    { kind: 'tool', at: ['after'], name: params.after },
  ],
  partialReferences(params) {
    if (!isPlainObject(params)) return [];
    const before = Array.isArray(params.before) ? params.before.map((name, index): [unknown, PathSegments] => [name, ['before', index]]) : [];
    return [...before, [params.after, ['after']] as [unknown, PathSegments]].flatMap(([name, at]): CheckReference[] =>
      wellFormedToolName(name) ? [{ kind: 'tool', at, name }] : [],
    );
  },
  run(params, evidence, id) {
    const calls = visibleCalls(evidence, params.nested);
    const saw = `saw ${summarizeCalls(calls)}`;
    const isAfter = toolNameMatcher(params.after);
    const firstAfter = calls.findIndex((call) => isAfter(call.raw_name));
    if (firstAfter === -1) {
      const hint = nestedCallsHint([params.after], params.nested, evidence);
      return result(
        KIND,
        id,
        'fail',
        `expected ${params.after} to be called after ${params.before.join(', ')}; ${params.after} was never called; ${saw}${hint}`,
      );
    }
    const evidenceIds = [calls[firstAfter].span_id];
    for (const before of params.before) {
      const isBefore = toolNameMatcher(before);
      const positions = calls.flatMap((call, index) => (isBefore(call.raw_name) ? [index] : []));
      if (positions.length === 0) {
        const hint = nestedCallsHint([before], params.nested, evidence);
        return result(KIND, id, 'fail', `expected ${before} to be called before ${params.after}; ${before} was never called; ${saw}${hint}`, evidenceIds);
      }
      const late = positions.find((index) => index > firstAfter);
      if (late !== undefined) {
        return result(
          KIND,
          id,
          'fail',
          `expected every ${before} call before the first ${params.after} (call ${firstAfter + 1}); ${before} was call ${late + 1}; ${saw}`,
          [calls[late].span_id, calls[firstAfter].span_id],
        );
      }
      // Calls of one model response are parallel: one asked for beside the after tool did not precede it.
      const beside = positions.find((index) => sameResponse(calls[index], calls[firstAfter]));
      if (beside !== undefined) {
        return result(
          KIND,
          id,
          'fail',
          `expected every ${before} call before the first ${params.after} (call ${firstAfter + 1}); ${before} was call ${beside + 1}, asked for in the same model response (turn ${calls[firstAfter].turn}): parallel calls are not ordered; ${saw}`,
          [calls[beside].span_id, calls[firstAfter].span_id],
        );
      }
      evidenceIds.push(...positions.map((index) => calls[index].span_id));
    }
    return result(KIND, id, 'pass', `${params.before.join(', ')} all ran before the first ${params.after} (call ${firstAfter + 1})`, evidenceIds);
  },
};

/** Both calls asked for by the model in one response (its parallel calls). */
function sameResponse(a: ToolCall, b: ToolCall): boolean {
  return a.source === 'model' && b.source === 'model' && a.turn !== null && a.turn === b.turn;
}
