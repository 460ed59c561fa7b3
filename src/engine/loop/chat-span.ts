import { SpanKind, SpanStatusCode, type Context, type Tracer } from '@opentelemetry/api';
import { AgentcheckError } from '../../config/errors.js';
import { ATTR, chatResponseAttributes, SPAN } from '../../spans/conventions.js';
import { genAiProviderName } from '../providers/registry.js';
import type { Model, ModelRequest, ModelResponse } from '../model/model.js';
import { assertModelResponse } from '../model/response-shape.js';
import { inputMessagesJson, outputMessagesJson, systemInstructionsJson, type ContentCapture } from './genai-messages.js';

/** Where a model call's `chat` span goes. */
export interface ChatSpanPlace {
  tracer: Tracer;
  parent: Context;
  /** Model calls made before this one in the run (`agentcheck.turn`). */
  turn: number;
  /** Record message content on the span; undefined records none. */
  contentCapture?: ContentCapture;
}

/**
 * One model call inside a `chat {model}` span (docs/spans.md): the agent loop's calls and the
 * model bridge's calls for external agents record the same attributes.
 */
export async function chatWithSpan(model: Model, request: ModelRequest, place: ChatSpanPlace): Promise<ModelResponse> {
  // CLIENT: a model call leaves the process (the GenAI conventions' kind for inference spans).
  const span = place.tracer.startSpan(
    `${SPAN.chat} ${model.modelId}`,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        [ATTR.operationName]: SPAN.chat,
        [ATTR.providerName]: genAiProviderName(model.provider),
        [ATTR.requestModel]: model.modelId,
        [ATTR.turn]: place.turn,
      },
    },
    place.parent,
  );
  const capture = place.contentCapture;
  if (capture) {
    span.setAttribute(ATTR.inputMessages, inputMessagesJson(request.messages, capture));
    if (request.system) span.setAttribute(ATTR.systemInstructions, systemInstructionsJson(request.system, capture));
  }
  try {
    const response = await model.generate(request);
    assertModelResponse(model, response);
    span.setAttributes(chatResponseAttributes(response, model.modelId));
    if (capture) span.setAttribute(ATTR.outputMessages, outputMessagesJson(response, capture));
    return response;
  } catch (error) {
    span.setAttribute(ATTR.errorType, error instanceof AgentcheckError ? error.code : 'exception');
    span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
    throw error;
  } finally {
    span.end();
  }
}
