import { checkFormat, type Locator } from '../../config/assert-format.js';
import { collectConfigErrors, throwConfigErrors, type ConfigError } from '../../config/errors.js';
import { STRING_MEANS } from '../../config/string-means.js';
import { partialToolReference, toolReference } from '../check-references.js';
import type { ArgsMode } from '../args/args-mode.js';
import type { ExpectedCall } from '../call-match.js';
import { checkArgsMode, checkToolAndArgs, objectParams, PARAM } from '../check-params.js';
import { result, type Check } from './check.js';
import { visibleCalls } from '../evidence.js';
import { nestedCallsHint } from '../nested-calls-hint.js';
import { compareTrajectory, SEQUENCE_MODES, type SequenceMode } from '../trajectory.js';

/** `tool_sequence: {mode, args_mode, calls: [{tool, args, args_mode}], nested}`. */
export interface ToolSequenceParams {
  mode?: SequenceMode;
  args_mode?: ArgsMode;
  calls: ExpectedCall[];
  nested?: boolean;
}

const KIND = 'tool_sequence';
// `calls: [refund, email]` is a likely slip: its error shows how to write a call.
const call = objectParams({ tool: PARAM.tool, args: PARAM.args, args_mode: PARAM.argsMode }, ['tool'], { [STRING_MEANS]: 'tool' });
const schema = objectParams({ mode: { enum: [...SEQUENCE_MODES] }, args_mode: PARAM.argsMode, calls: { type: 'array', items: call }, nested: PARAM.nested }, [
  'calls',
]);

/** The calls follow the expected trajectory (mode default strict, args_mode default exact; per-call overrides). */
export const toolSequence: Check<ToolSequenceParams> = {
  kind: KIND,
  validate(params: unknown, locate: Locator): void {
    // Each call's tool and args on their own, beside the format problems of the others (docs/cli.md, validate).
    const format = checkFormat<ToolSequenceParams>(schema, params, locate);
    const problems: ConfigError[] = [...format.errors];
    const calls = format.typed(['calls']) ? format.value.calls : [];
    // Every run has the empty list among its calls (superset) and as a subsequence (in_order): such
    // a check could only pass, so it is refused; strict, unordered and subset with calls: [] say
    // "no tool calls" (docs/verdicts.md, tool_sequence).
    const mode = format.valid(['mode']) ? format.value.mode : undefined;
    if (format.typed(['calls']) && calls.length === 0 && (mode === 'superset' || mode === 'in_order')) {
      problems.push(
        locate(
          ['calls'],
          `expected at least 1 item(s) with mode ${mode}, which an empty list of calls passes on every run; mode strict with calls: [] means "no tool calls"`,
        ),
      );
    }
    const checkMode = format.valid(['args_mode']) ? format.value.args_mode : undefined;
    calls.forEach((expected, index) => {
      for (const key of ['tool', 'args'] as const) {
        if (format.valid(['calls', index, key])) collectConfigErrors(problems, () => checkToolAndArgs({ [key]: expected[key] }, locate, ['calls', index]));
      }
      // A call's args and args_mode, under the check's args_mode, as tool_called's (checkArgsMode).
      if (format.valid(['calls', index, 'args']) && format.valid(['calls', index, 'args_mode'])) {
        const inherited = checkMode && { mode: checkMode, from: "the check's" };
        collectConfigErrors(problems, () => checkArgsMode(expected, locate, ['calls', index], inherited));
      }
    });
    // The check's args_mode applies to the calls' args that have no args_mode of their own: with
    // none, it compares nothing (ignore says so, and stays).
    const wellFormed = format.typed(['calls']) && calls.every((_expected, index) => format.valid(['calls', index]));
    const unused = calls.every((expected) => expected.args === undefined || expected.args_mode !== undefined);
    if (checkMode !== undefined && checkMode !== 'ignore' && wellFormed && unused) {
      problems.push(
        locate(
          ['args_mode'],
          `args_mode compares each call's arguments with its "args", but no call gives "args" without an args_mode of its own, so it compares nothing (a call without args matches any arguments); give a call args, or remove args_mode`,
        ),
      );
    }
    throwConfigErrors(problems);
  },
  references: (params) => params.calls.flatMap((call, index) => toolReference(call, ['calls', index])),
  partialReferences(params) {
    const calls = (params as { calls?: unknown } | null)?.calls;
    return Array.isArray(calls) ? calls.flatMap((entry, index) => partialToolReference(entry, ['calls', index], { args: true })) : [];
  },
  run(params, evidence, id) {
    const mode = params.mode ?? 'strict';
    const outcome = compareTrajectory(mode, params.calls, visibleCalls(evidence, params.nested), params.args_mode ?? 'exact');
    // A failure about calls only a chain or plan made says so, as tool_called's does.
    const hint = outcome.ok
      ? ''
      : nestedCallsHint(
          params.calls.map((call) => call.tool),
          params.nested,
          evidence,
        );
    return result(KIND, id, outcome.ok ? 'pass' : 'fail', `${mode}: ${outcome.reason}${hint}`, outcome.evidence);
  },
};
