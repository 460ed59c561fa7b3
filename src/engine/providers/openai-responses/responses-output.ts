import { ModelError } from '../../../config/errors.js';
import type { FinishReason, ModelResponse, ModelToolCall } from '../../model/model.js';
import type { JsonReply } from '../http-retry.js';
import { asRecord, detailCount, tokens } from '../response-fields.js';
import { parseToolArguments } from '../tool-call-arguments.js';
import { RESPONSES_PROVIDER } from './responses-input.js';

/** `incomplete_details.reason` -> unified finish reason. */
const INCOMPLETE = new Map<string, FinishReason['unified']>([
  ['max_output_tokens', 'length'],
  ['content_filter', 'content_filter'],
]);

/**
 * A Response object as a ModelResponse: `message` items give the text (`output_text` parts)
 * and any refusal (`refusal` parts), `function_call` items the calls, `reasoning` items make the
 * output kept for the next request; `status` and `incomplete_details` give the finish reason.
 */
export function mapResponsesOutput(reply: JsonReply): ModelResponse {
  const body = asRecord(reply.json);
  if (!Array.isArray(body.output)) throw reply.malformed('response has no output array');
  let text = '';
  let refusal = '';
  let reasoning = false;
  const toolCalls: ModelToolCall[] = [];
  for (const [index, entry] of body.output.entries()) {
    const item = asRecord(entry);
    if (item.type === 'reasoning') reasoning = true;
    if (item.type === 'message') {
      for (const part of Array.isArray(item.content) ? item.content.map(asRecord) : []) {
        if (part.type === 'output_text' && typeof part.text === 'string') text += part.text;
        if (part.type === 'refusal' && typeof part.refusal === 'string') refusal += part.refusal;
      }
    }
    if (item.type === 'function_call') {
      if (typeof item.call_id !== 'string' || typeof item.name !== 'string' || item.name === '') {
        throw reply.malformed(`output[${index}] is a function_call without call_id or name`);
      }
      toolCalls.push({ id: item.call_id, name: item.name, ...parseToolArguments(item.arguments) });
    }
  }
  const usage = asRecord(body.usage);
  return {
    text,
    toolCalls,
    finishReason: finishReasonOf(body, toolCalls.length > 0, refusal !== ''),
    usage: {
      input_tokens: tokens(usage.input_tokens),
      output_tokens: tokens(usage.output_tokens),
      ...detailCount('cached_input_tokens', asRecord(usage.input_tokens_details).cached_tokens),
      ...detailCount('reasoning_tokens', asRecord(usage.output_tokens_details).reasoning_tokens),
    },
    responseModel: typeof body.model === 'string' ? body.model : undefined,
    responseId: typeof body.id === 'string' ? body.id : undefined,
    ...(refusal === '' ? {} : { refusal }),
    // Kept as the parsed objects: re-serialised, they are the same JSON the API sent.
    ...(reasoning ? { providerContent: { provider: RESPONSES_PROVIDER, items: body.output.map(asRecord) } } : {}),
  };
}

function finishReasonOf(body: Record<string, unknown>, calls: boolean, refused: boolean): FinishReason {
  const status = typeof body.status === 'string' ? body.status : 'completed';
  if (status === 'incomplete') {
    const reason = asRecord(body.incomplete_details).reason;
    const raw = typeof reason === 'string' ? reason : 'incomplete';
    return { unified: INCOMPLETE.get(raw) ?? 'other', raw };
  }
  if (status !== 'completed') {
    // failed, cancelled, or a background response still queued / in progress: there is no answer.
    const error = asRecord(body.error);
    const why = typeof error.message === 'string' ? `: ${typeof error.code === 'string' ? `${error.code}: ` : ''}${error.message}` : '';
    throw new ModelError(RESPONSES_PROVIDER, `${RESPONSES_PROVIDER}: the response is ${status}, not completed${why}`, 'MODEL_RESPONSE_FAILED');
  }
  if (refused) return { unified: 'refusal', raw: status };
  return { unified: calls ? 'tool_calls' : 'stop', raw: status };
}
