import type { Message } from './model/message.js';
import type { Usage } from './model/model.js';

export type StopReason = 'end_turn' | 'max_turns' | 'paused' | 'error';

/** A gated call waiting for an answer. */
export interface PendingInteraction {
  id: string;
  tool: string;
  tool_call_id: string;
  args: unknown;
}

/** The result of one batch invoke (docs/engine-loop.md). */
export interface Turn {
  messages: Message[];
  output: string;
  stop_reason: StopReason;
  pending_interaction?: PendingInteraction;
  usage: Usage;
  trace_id: string;
  error?: { type: string; message: string };
  /** Set for an external agent (docs/external-agents.md): its engine and the trace id an http engine returned. */
  external?: { kind: 'command' | 'http'; trace_id?: string };
}
