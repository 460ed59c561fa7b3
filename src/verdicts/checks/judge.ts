import type { Locator } from '../../config/assert-format.js';
import { NOT_BLANK_PATTERN } from '../../config/format-patterns.js';
import { checkSchema, objectParams } from '../check-params.js';
import { result, type Check } from './check.js';

/** What a grader may be shown: the final output, the whole conversation, the tool calls. */
export const JUDGE_INCLUDES = ['output', 'transcript', 'tool_calls'] as const;
export type JudgeInclude = (typeof JUDGE_INCLUDES)[number];

/** The score a judge check needs when it names no `threshold`. */
export const DEFAULT_JUDGE_THRESHOLD = 0.7;
/** What a grader is shown when the check names no `include`. */
export const DEFAULT_JUDGE_INCLUDE: readonly JudgeInclude[] = ['output'];

/** `judge: {rubric, model, threshold, include}`; `model` is checked by the runner, which grades. */
export interface JudgeParams {
  rubric: string;
  model?: Record<string, unknown>;
  threshold?: number;
  include?: JudgeInclude[];
}

const KIND = 'judge';
const schema = objectParams(
  {
    // A blank rubric asks the grader nothing: refused as a blank name is (docs/verdicts.md).
    rubric: { type: 'string', minLength: 1, pattern: NOT_BLANK_PATTERN },
    model: { type: 'object' },
    threshold: { type: 'number', minimum: 0, maximum: 1 },
    include: { type: 'array', minItems: 1, uniqueItems: true, items: { enum: [...JUDGE_INCLUDES] } },
  },
  ['rubric'],
);

/**
 * A grader model's score of the run against a rubric. The runner asks the grader before
 * checks run and puts its answer in `evidence.judgements`; this check only reads it, so it
 * stays a pure function of the evidence. Pass when score >= threshold.
 */
export const judge: Check<JudgeParams> = {
  kind: KIND,
  validate(params: unknown, locate: Locator): void {
    checkSchema(schema, params, locate);
  },
  run(params, evidence, id) {
    const ids = evidence.root ? [evidence.root.span_id] : [];
    const answer = evidence.judgements[id];
    if (!answer) return result(KIND, id, 'error', 'no grader answer for this check (judge checks are graded by the scenario runner)', ids);
    if ('error' in answer) {
      // A failed call says so itself; only an answer that came back can be unusable.
      const reason = answer.error_type === 'grader_call_failed' ? answer.error : `the grader's answer could not be used: ${answer.error}`;
      return result(KIND, id, 'error', reason, ids);
    }
    const threshold = params.threshold ?? DEFAULT_JUDGE_THRESHOLD;
    const passed = answer.score >= threshold;
    // A blank reason is the grader's to give: the check's reason says it gave none.
    const reason = `score ${answer.score} ${passed ? '>=' : '<'} ${threshold}${answer.reason.trim() ? `: ${answer.reason}` : ' (the grader gave no reason)'}`;
    return result(KIND, id, passed ? 'pass' : 'fail', reason, ids);
  },
};
