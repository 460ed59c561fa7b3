import { describeValue } from '../../config/describe-value.js';
import { ModelError } from '../../config/errors.js';
import { UNIFIED_FINISH_REASONS, type Model, type ModelResponse } from './model.js';

const SHAPE = 'a ModelResponse {text: string, toolCalls: [{id, name, args}], finishReason: {unified, raw}, usage: {input_tokens, output_tokens}}';
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** What is wrong with a response a Model returned, or null: the fields the loop reads. */
function responseProblem(response: unknown): string | null {
  if (!isObject(response)) return `got ${describeValue(response)}`;
  if (typeof response.text !== 'string') return `text: got ${describeValue(response.text)}`;
  if (!Array.isArray(response.toolCalls)) return `toolCalls: got ${describeValue(response.toolCalls)}`;
  const call = response.toolCalls.findIndex((item) => !isObject(item) || typeof item.id !== 'string' || typeof item.name !== 'string');
  if (call >= 0) return `toolCalls[${call}]: got ${describeValue(response.toolCalls[call])}`;
  const finish = response.finishReason;
  if (!isObject(finish) || typeof finish.unified !== 'string' || typeof finish.raw !== 'string') return `finishReason: got ${describeValue(finish)}`;
  // Exact words only: a word the loop does not know (or 'STOP') could mean anything, so it is never a normal end.
  if (!(UNIFIED_FINISH_REASONS as readonly string[]).includes(finish.unified)) {
    return `finishReason.unified: got ${describeValue(finish.unified)}, expected one of ${UNIFIED_FINISH_REASONS.join(', ')}`;
  }
  const usage = response.usage;
  if (!isObject(usage) || typeof usage.input_tokens !== 'number' || typeof usage.output_tokens !== 'number') return `usage: got ${describeValue(usage)}`;
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
