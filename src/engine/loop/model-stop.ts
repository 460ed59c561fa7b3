import type { FinishReason, ModelResponse } from '../model/model.js';
import type { StopReason } from '../turn.js';

/** How one kind of abnormal model ending stops the turn. */
interface AbnormalEnding {
  stopReason: StopReason;
  type: string;
  why: string;
}

/**
 * Finish reasons that end the turn whatever the response asked for (docs/engine-loop.md, Stop
 * reasons): a cut-off, filtered or refused answer is never a normal end, and calls that came
 * with it are not run (a truncated call's arguments cannot be trusted).
 */
const ABNORMAL: Partial<Record<FinishReason['unified'], AbnormalEnding>> = {
  length: {
    stopReason: 'max_tokens',
    type: 'MODEL_MAX_TOKENS',
    why: 'the answer was cut off at a token limit (raise max_tokens, max_completion_tokens or max_output_tokens in llm.parameters)',
  },
  content_filter: { stopReason: 'content_filter', type: 'MODEL_CONTENT_FILTER', why: "the provider's content filter withheld the answer" },
  refusal: { stopReason: 'refusal', type: 'MODEL_REFUSAL', why: 'the model refused to answer' },
  // Anthropic pauses long-running server-tool turns; agentcheck sends no server tools and does not continue one.
  pause: { stopReason: 'error', type: 'MODEL_PAUSE_TURN', why: 'the provider paused a long-running turn, which agentcheck does not continue' },
};

/** The stop and its error when `response` ends the turn abnormally, else undefined. */
export function abnormalStop(response: ModelResponse, provider: string): { stopReason: StopReason; error: { type: string; message: string } } | undefined {
  const ending = ABNORMAL[response.finishReason.unified];
  if (!ending) return undefined;
  const refusal = response.refusal ? `: ${JSON.stringify(response.refusal)}` : '';
  return {
    stopReason: ending.stopReason,
    error: { type: ending.type, message: `${ending.why} (${provider} finish reason ${JSON.stringify(response.finishReason.raw)})${refusal}` },
  };
}
