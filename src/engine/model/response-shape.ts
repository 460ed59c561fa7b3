import { describeValue } from '../../config/describe-value.js';
import { ModelError } from '../../config/errors.js';
import { UNIFIED_FINISH_REASONS, type Model, type ModelResponse } from './model.js';

const SHAPE = 'a ModelResponse {text: string, toolCalls: [{id, name, args}], finishReason: {unified, raw}, usage: {input_tokens, output_tokens}}';
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** What is wrong with a response a Model returned, or null: the fields the loop reads, each named by its path. */
function responseProblem(response: unknown): string | null {
  if (!isObject(response)) return `got ${describeValue(response)}`;
  if (typeof response.text !== 'string') return `text: got ${describeValue(response.text)}`;
  if (!Array.isArray(response.toolCalls)) return `toolCalls: got ${describeValue(response.toolCalls)}`;
  for (const [index, call] of response.toolCalls.entries()) {
    const problem = isObject(call)
      ? fieldProblem(call, `toolCalls[${index}]`, { id: 'string', name: 'string' })
      : `toolCalls[${index}]: got ${describeValue(call)}`;
    if (problem) return problem;
  }
  const finish = response.finishReason;
  if (!isObject(finish)) return `finishReason: got ${describeValue(finish)}`;
  // Exact words only: a word the loop does not know (or 'STOP') could mean anything, so it is never a normal end.
  if (!(UNIFIED_FINISH_REASONS as readonly unknown[]).includes(finish.unified)) {
    return `finishReason.unified: got ${describeValue(finish.unified)}, expected one of ${UNIFIED_FINISH_REASONS.join(', ')}`;
  }
  const usage = response.usage;
  return (
    fieldProblem(finish, 'finishReason', { raw: 'string' }) ??
    (isObject(usage)
      ? (fieldProblem(usage, 'usage', { input_tokens: 'number', output_tokens: 'number' }) ?? tokenCountProblem(usage))
      : `usage: got ${describeValue(usage)}`)
  );
}

/** A token count that is no count (negative, NaN, infinite): summed into the run's usage, it would spoil every total. */
function tokenCountProblem(usage: Record<string, unknown>): string | null {
  for (const key of ['input_tokens', 'output_tokens', 'cached_input_tokens', 'reasoning_tokens']) {
    const count = usage[key];
    if (count === undefined) continue;
    if (typeof count !== 'number' || !Number.isFinite(count) || count < 0)
      return `usage.${key}: got ${describeValue(count)}, expected a count of tokens (a number >= 0)`;
  }
  return null;
}

/** The first field of `record` that is not of its type, named by its path (`finishReason.raw: got nothing`), or null. */
function fieldProblem(record: Record<string, unknown>, at: string, fields: Record<string, 'string' | 'number'>): string | null {
  for (const [key, type] of Object.entries(fields)) {
    if (typeof record[key] !== type) return `${at}.${key}: got ${describeValue(record[key])}`;
  }
  return null;
}

/**
 * Holds a model's response to the shape the loop reads, so a custom Model that returns another
 * ends the turn naming the model and what was expected, not with a TypeError from the loop.
 */
export function assertModelResponse(model: Model, response: unknown): asserts response is ModelResponse {
  const problem = responseProblem(response);
  if (problem) throw new ModelError(model.provider, `model ${model.provider}/${model.modelId} returned a wrong response (${problem}); expected ${SHAPE}`);
}
