import type { STOP_REASONS } from '../spans/conventions.js';
import type { Message } from './model/message.js';
import type { Usage } from './model/model.js';

/**
 * Why a turn ended (docs/engine-loop.md, Stop reasons). `max_tokens`, `refusal` and
 * `content_filter` are abnormal model endings and come with an `error` saying what the provider said.
 */
export type StopReason = (typeof STOP_REASONS)[number];

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
