import type { FinishReason, ModelResponse } from '../model/model.js';
import type { StopReason } from '../turn.js';

/** Whose answer ended abnormally: the agent's model's, or a judge check's grader's (its words differ). */
export type Answerer = 'model' | 'grader';

/** Who refused, and where that answerer's token limit is set. */
const WORDS: Record<Answerer, { who: string; parameters: string }> = {
  model: { who: 'the model', parameters: 'llm.parameters' },
  grader: { who: 'the grader', parameters: "the grader's model.parameters" },
};

/** How one kind of abnormal model ending stops the turn. */
interface AbnormalEnding {
  stopReason: StopReason;
  type: string;
  why: (words: (typeof WORDS)[Answerer]) => string;
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
    why: ({ parameters }) => `the answer was cut off at a token limit (raise max_tokens, max_completion_tokens or max_output_tokens in ${parameters})`,
  },
  content_filter: { stopReason: 'content_filter', type: 'MODEL_CONTENT_FILTER', why: () => "the provider's content filter withheld the answer" },
  refusal: { stopReason: 'refusal', type: 'MODEL_REFUSAL', why: ({ who }) => `${who} refused to answer` },
  // Anthropic pauses long-running server-tool turns; agentcheck sends no server tools and does not continue one.
  pause: { stopReason: 'error', type: 'MODEL_PAUSE_TURN', why: () => 'the provider paused a long-running turn, which agentcheck does not continue' },
  // A custom Model saying its answer ended in an error: the model failed, as a thrown error would.
  error: { stopReason: 'error', type: 'MODEL_FAILED', why: ({ who }) => `${who} ended its answer with an error` },
  // A word this version does not know could mean anything, so it is never taken for a normal end.
  other: { stopReason: 'error', type: 'MODEL_UNKNOWN_FINISH_REASON', why: () => 'the provider ended the answer with a finish reason agentcheck does not know' },
};

/** Provider words whose unified reason is right but whose advice differs. */
const WHY_BY_RAW: Readonly<Record<string, Record<Answerer, string>>> = {
  model_context_window_exceeded: {
    model: "the conversation no longer fits the model's context window (shorten the input or the tool results, or pick a model with a larger window)",
    grader: "the grading request no longer fits the grader's context window (include less evidence, or pick a model with a larger window)",
  },
};

/**
 * The stop and its error when `response` ends the turn abnormally, else undefined. A judge's
 * grader uses the same endings (docs/verdicts.md, judge), worded as the grader's.
 */
export function abnormalStop(
  response: ModelResponse,
  provider: string,
  answerer: Answerer = 'model',
): { stopReason: StopReason; error: { type: string; message: string } } | undefined {
  const { unified, raw } = response.finishReason;
  const ending = ABNORMAL[unified];
  // No finish reason at all (some OpenAI-compatible servers send none) is judged by the content.
  if (!ending || (unified === 'other' && raw === 'unknown')) return undefined;
  // OpenAI has a refusal field; Anthropic's refusal explains itself in the answer's text.
  const said = response.refusal ?? (ending.stopReason === 'refusal' && response.text !== '' ? response.text : undefined);
  const refusal = said === undefined ? '' : `: ${JSON.stringify(said)}`;
  const why = WHY_BY_RAW[raw]?.[answerer] ?? ending.why(WORDS[answerer]);
  return {
    stopReason: ending.stopReason,
    error: { type: ending.type, message: `${why} (${provider} finish reason ${JSON.stringify(raw)})${refusal}` },
  };
}
