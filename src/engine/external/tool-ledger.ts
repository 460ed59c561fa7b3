import { SpanStatusCode, type Context, type Span, type Tracer } from '@opentelemetry/api';
import { ATTR, EVIDENCE_ATTR, SPAN } from '../../spans/conventions.js';
import type { Message, ToolResultMessage } from '../model/message.js';
import type { ModelResponse } from '../model/model.js';
import { capText } from '../tools/result-text.js';
import { nextToolSeq } from '../tools/tool-caller.js';

/** Longest result text kept on a span (as for the engine's own tool calls). */
const MAX_SPAN_RESULT_CHARS = 100_000;

/** The error type of a tool call the agent never sent a result for. */
export const UNANSWERED_TOOL_CALL = 'unanswered_tool_call';

interface OpenCall {
  name: string;
  span: Span;
}

/**
 * The tool calls an external agent's model asked for, seen from the model bridge: each opens an
 * `execute_tool` span when the model answers and ends it when the agent's next request carries
 * its result (an error where the agent marks it). Also builds the run's transcript.
 */
export class ToolLedger {
  /** The conversation after the input: assistant answers and tool results, in order. */
  readonly transcript: Message[] = [];
  private readonly open = new Map<string, OpenCall>();

  constructor(
    private readonly tracer: Tracer,
    private readonly parent: Context,
  ) {}

  /** Ends the spans of open calls whose results `messages` (a new request) carry. */
  settle(messages: readonly Message[]): void {
    for (const message of messages) {
      if (message.role !== 'tool') continue;
      const call = this.open.get(message.tool_call_id);
      if (!call) continue;
      this.open.delete(message.tool_call_id);
      const result: ToolResultMessage = { ...message, tool_name: call.name };
      this.transcript.push(result);
      call.span.setAttributes({
        [ATTR.toolResult]: capText(message.content, MAX_SPAN_RESULT_CHARS),
        [EVIDENCE_ATTR.toolOutcome]: message.is_error ? 'error' : 'ok',
        [ATTR.toolIsError]: message.is_error,
      });
      if (message.is_error) {
        call.span.setAttribute(ATTR.errorType, 'tool_error');
        call.span.setStatus({ code: SpanStatusCode.ERROR, message: message.content.slice(0, 500) });
      }
      call.span.end();
    }
  }

  /** Records the model's answer; each tool call it asks for opens an `execute_tool` span. */
  record(response: ModelResponse, turn: number): void {
    const calls = response.toolCalls.map((call) => ({ tool_call_id: call.id, tool_name: call.name, input: call.args }));
    this.transcript.push(calls.length ? { role: 'assistant', content: response.text, tool_calls: calls } : { role: 'assistant', content: response.text });
    for (const call of response.toolCalls) {
      const span = this.tracer.startSpan(
        `${SPAN.executeTool} ${call.name}`,
        {
          attributes: {
            [ATTR.operationName]: SPAN.executeTool,
            [ATTR.toolName]: call.name,
            [ATTR.toolCallId]: call.id,
            [ATTR.toolType]: 'function',
            [ATTR.toolArguments]: typeof call.args === 'string' ? call.args : JSON.stringify(call.args ?? {}),
            [ATTR.toolSource]: 'model',
            [ATTR.toolKind]: 'external',
            [ATTR.toolReadOnly]: false,
            [ATTR.toolSeq]: nextToolSeq(),
            [ATTR.turn]: turn,
          },
        },
        this.parent,
      );
      this.open.set(call.id, { name: call.name, span });
    }
  }

  /** Ends the calls never answered as errors (`unanswered_tool_call`) and returns their names. */
  closeUnanswered(): string[] {
    const names: string[] = [];
    for (const [id, call] of this.open) {
      names.push(`${call.name} (${id})`);
      const reason = `the agent never sent a result for this call of ${call.name}`;
      call.span.setAttributes({
        [ATTR.toolResult]: reason,
        [EVIDENCE_ATTR.toolOutcome]: 'error',
        [ATTR.toolIsError]: true,
        [ATTR.errorType]: UNANSWERED_TOOL_CALL,
      });
      call.span.setStatus({ code: SpanStatusCode.ERROR, message: reason });
      call.span.end();
    }
    this.open.clear();
    return names;
  }
}
