import type { Context, Tracer } from '@opentelemetry/api';
import { AgentcheckError } from '../../config/errors.js';
import type { AssistantMessage, Message, ToolCallPart, ToolResultMessage } from '../model/message.js';
import { unansweredCalls } from './unanswered-calls.js';
import type { Model, ModelResponse, ToolDefinition, Usage } from '../model/model.js';
import { addUsage } from '../model/usage.js';
import type { ApprovalAnswer } from '../permissions/approval-policy.js';
import type { ToolCaller } from '../tools/tool-caller.js';
import { runAborted, throwIfRunAborted } from '../run-aborted.js';
import type { PendingInteraction, StopReason } from '../turn.js';
import { chatWithSpan } from './chat-span.js';
import type { ContentCapture } from './genai-messages.js';
import { abnormalStop } from './model-stop.js';

/** Everything the loop needs; the loop knows the Model interface, never a provider. */
export interface LoopSetup {
  model: Model;
  system: string;
  tools: ToolDefinition[];
  parameters: Record<string, unknown>;
  caller: ToolCaller;
  maxTurns: number;
  tracer: Tracer;
  /** Span context the loop's chat and execute_tool spans hang under. */
  parent: Context;
  signal?: AbortSignal;
  /** Record message content on chat spans; undefined (the default for live models) records none. */
  contentCapture?: ContentCapture;
  /** Called after every tool round with the live state; a checkpointer must copy what it keeps. */
  onCheckpoint?: (state: LoopState) => void | Promise<void>;
  /**
   * Model calls the run made before this loop began (a flow's earlier components): the spans'
   * `agentcheck.turn` goes on from there, so it indexes the run's model calls, never repeats.
   */
  turnOffset?: number;
}

/** The loop's whole state: a paused run resumes from it. */
export interface LoopState {
  messages: Message[];
  /** Model calls made so far. */
  turns: number;
  usage: Usage;
}

export interface LoopResult {
  state: LoopState;
  output: string;
  stop_reason: StopReason;
  pending?: PendingInteraction;
  error?: { type: string; message: string };
}

/**
 * The agent loop (docs/engine-loop.md): call the model; run the tool calls it asks for
 * (concurrently, reported in call order); repeat until it answers with text, max_turns is
 * reached, a gate needs an answer nobody gave, the model stops abnormally (cut off, filtered,
 * refused), or an error ends it.
 */
export async function runAgentLoop(setup: LoopSetup, initial: LoopState, decision?: ApprovalAnswer): Promise<LoopResult> {
  const state: LoopState = { messages: [...initial.messages], turns: initial.turns, usage: { ...initial.usage } };
  try {
    // A resumed run first settles the calls that were waiting when it paused.
    const open = unansweredCalls(state.messages);
    if (open.length) {
      // The calls came with this loop's last model call.
      const pending = await runToolRound(setup, state, open, (setup.turnOffset ?? 0) + Math.max(0, state.turns - 1), decision);
      resultsInCallOrder(state.messages);
      if (pending) return stop(state, 'paused', pending);
      await setup.onCheckpoint?.(state);
    }
    for (;;) {
      if (state.turns >= setup.maxTurns) return stop(state, 'max_turns');
      throwIfRunAborted(setup.signal);
      const turn = (setup.turnOffset ?? 0) + state.turns;
      const response = await chat(setup, state);
      state.turns++;
      addUsage(state.usage, response.usage);
      const calls: ToolCallPart[] = response.toolCalls.map((call) => ({ tool_call_id: call.id, tool_name: call.name, input: call.args }));
      const argsErrors = new Map(response.toolCalls.filter((call) => call.argsError).map((call) => [call.id, call.argsError as string]));
      const message: AssistantMessage = { role: 'assistant', content: response.text };
      if (calls.length) message.tool_calls = calls;
      // The provider sends this back as it came (reasoning included) next time; it is not the output.
      if (response.providerContent) message.provider_content = response.providerContent;
      state.messages.push(message);
      const abnormal = abnormalStop(response, setup.model.provider);
      if (abnormal) return { ...stop(state, abnormal.stopReason), error: abnormal.error };
      if (!calls.length) return stop(state, 'end_turn');
      // An aborted run runs none of these calls: ToolCaller.call checks the signal first.
      const pending = await runToolRound(setup, state, calls, turn, undefined, argsErrors);
      if (pending) return stop(state, 'paused', pending);
      await setup.onCheckpoint?.(state);
    }
  } catch (error) {
    // Once the run's signal aborted, that is why it ended, whichever step it cut short.
    return { ...stop(state, 'error'), error: describeError(setup.signal?.aborted ? runAborted(setup.signal) : error) };
  }
}

/** One model call inside a `chat {model}` span. */
function chat(setup: LoopSetup, state: LoopState): Promise<ModelResponse> {
  return chatWithSpan(
    setup.model,
    {
      system: setup.system,
      // A snapshot: the transcript grows after this call, the request must not.
      messages: [...state.messages],
      tools: setup.tools,
      parameters: setup.parameters,
      signal: setup.signal,
    },
    { tracer: setup.tracer, parent: setup.parent, turn: (setup.turnOffset ?? 0) + state.turns, contentCapture: setup.contentCapture },
  );
}

/**
 * Runs one response's tool calls concurrently and appends their results in call order.
 * Returns the first call left waiting for approval, if any (its result is not appended).
 */
async function runToolRound(
  setup: LoopSetup,
  state: LoopState,
  calls: ToolCallPart[],
  turn: number,
  decision?: ApprovalAnswer,
  argsErrors?: ReadonlyMap<string, string>,
): Promise<PendingInteraction | undefined> {
  const results = await Promise.all(
    calls.map((call, index) =>
      setup.caller.call({
        name: call.tool_name,
        args: call.input,
        argsError: argsErrors?.get(call.tool_call_id),
        callId: call.tool_call_id,
        source: 'model',
        turn,
        parent: setup.parent,
        decision: index === 0 ? decision : undefined,
      }),
    ),
  );
  let pending: PendingInteraction | undefined;
  results.forEach((result, index) => {
    const call = calls[index];
    if (result.outcome === 'pending') {
      pending ??= { id: `approval_${call.tool_call_id}`, tool: call.tool_name, tool_call_id: call.tool_call_id, args: call.input };
      return;
    }
    const message: ToolResultMessage = {
      role: 'tool',
      tool_call_id: call.tool_call_id,
      tool_name: call.tool_name,
      content: result.content,
      is_error: result.isError,
    };
    if (result.outcome === 'denied') message.denied = true;
    state.messages.push(message);
  });
  return pending;
}

/**
 * Puts the results of the last response's calls in call order: a call answered on resume goes
 * back to its place among the results its round gave before the pause, as in a run that never
 * paused (docs/engine-loop.md).
 */
function resultsInCallOrder(messages: Message[]): void {
  let at = messages.length - 1;
  while (at >= 0 && messages[at].role === 'tool') at--;
  const last = messages[at];
  if (!last || last.role !== 'assistant' || !last.tool_calls) return;
  const position = new Map(last.tool_calls.map((call, index) => [call.tool_call_id, index]));
  const results = messages.slice(at + 1) as ToolResultMessage[];
  const place = (message: ToolResultMessage) => position.get(message.tool_call_id) ?? position.size;
  // Stable: results of one call id keep their order.
  results.sort((a, b) => place(a) - place(b));
  messages.splice(at + 1, results.length, ...results);
}

function stop(state: LoopState, stopReason: StopReason, pending?: PendingInteraction): LoopResult {
  let output = '';
  for (let i = state.messages.length - 1; i >= 0; i--) {
    const message = state.messages[i];
    if (message.role === 'assistant') {
      output = message.content;
      break;
    }
  }
  const result: LoopResult = { state, output, stop_reason: stopReason };
  if (pending) result.pending = pending;
  return result;
}

/** `{type, message}` for a Turn's error: the error's code when it has one. */
export function describeError(error: unknown): { type: string; message: string } {
  if (error instanceof AgentcheckError) return { type: error.code, message: error.message };
  if (error instanceof Error) return { type: error.name || 'Error', message: error.message };
  return { type: 'Error', message: String(error) };
}
