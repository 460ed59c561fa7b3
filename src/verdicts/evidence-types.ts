/** What checks and the test_run verdict read: a run's spans turned into plain facts. */
import type { Message } from '../engine/model/message.js';
import type { ResolvedConfig } from '../engine/resolve-config.js';
import type { SpanRecord } from '../spans/span-record.js';

/** How a call ended (`agentcheck.tool.outcome`): returned, failed, refused by a deny, or waiting for approval. */
export type CallOutcome = 'ok' | 'error' | 'denied' | 'pending';
/** Who made a call (`agentcheck.tool.source`). */
export type CallSource = 'model' | 'plan' | 'chain' | 'flow';
/** An approval answer (`agentcheck.approval.decision`). */
export type ApprovalDecision = 'approve' | 'deny' | 'pending';

/** One execute_tool span as evidence. */
export interface ToolCall {
  span_id: string;
  /** Normalized: without `execute_tool ` and `mcp__<server>__` prefixes. */
  name: string;
  raw_name: string;
  call_id: string | null;
  /** Parsed arguments; the raw text when they were not JSON; undefined when absent. */
  args: unknown;
  /** Parsed result; the raw text when it was not JSON (e.g. cut); undefined when not executed. */
  result: unknown;
  /** The result as text, for error tokens: a string result itself, else its JSON. */
  result_text: string | null;
  outcome: CallOutcome;
  is_error: boolean;
  /** `error.type`, or the refusal reason, when the call failed. */
  error_type: string | null;
  /** The span's status message when the call failed (a refusal's schema message, say); else null. */
  error_message: string | null;
  /**
   * `agentcheck.tool.refused`: why the call was never executed (`unknown_tool`, `invalid_arguments`,
   * `call_depth_exceeded`, `denied`, `pending`, `approval_required`); null for a call that ran.
   */
  refused: string | null;
  read_only: boolean;
  /** A run_command call of a program in the agent's `commands.allow` list (`agentcheck.tool.command_allowed`). */
  command_allowed: boolean;
  /** `agentcheck.tool.kind`: one of TOOL_KIND_NAMES on agentcheck's spans (docs/spans.md); null when the span has none. */
  kind: string | null;
  source: CallSource;
  /** The model call (0-based) that asked for it; null for calls not made by the model. */
  turn: number | null;
  /** Made inside a plan or chain (visible to checks only with `nested: true`). */
  nested: boolean;
  /** `agentcheck.tool.seq`: the order calls started (calls are ordered by it); null on older spans. */
  seq: number | null;
  start_ms: number;
  /** The request an http tool sent (absent for other tools and spans that did not record one). */
  request?: SentHttpRequest;
}

/** An http tool's request as its execute_tool span recorded it (secrets already scrubbed). */
export interface SentHttpRequest {
  /** `http.request.method`. */
  method: string;
  /** `url.full`. */
  url: string;
  /** `agentcheck.http.request.headers`, as sent (names as written in the tool). */
  headers: Record<string, string>;
  /** `agentcheck.http.request.body`: the text sent, or undefined without a body. */
  body?: string;
  /** `http.response.status_code`; null when no response came. */
  status: number | null;
}

/** One approval span as evidence. */
export interface ApprovalRecord {
  /** The tool's name without `mcp__<server>__`, as results name it. */
  tool: string;
  /** The name as the span gave it (`mcp__fs__write_file`): what a server-prefixed expected name is compared with. */
  raw_tool: string;
  decision: ApprovalDecision;
  call_id: string | null;
  span_id: string;
  /** `agentcheck.tool.seq` of the execute_tool span it gated (same call id); null when unknown. */
  seq: number | null;
  start_ms: number;
}

/** Flow state after the run (`agentcheck.flow.state`): the four channels of docs/workflows.md, State. */
export interface FlowStateEvidence {
  status?: unknown;
  context?: Record<string, unknown>;
  ui_chat_log?: unknown[];
  /** Each agent component's conversation (long strings cut with a `[truncated N characters]` marker). */
  conversation_history?: Record<string, unknown[]>;
  [channel: string]: unknown;
}

/**
 * A grader's answer to one judge check (graded by the runner before checks run), or why there is
 * none: the call failed, or its answer could not be used (the `error.type` of docs/spans.md).
 */
export type Judgement = { score: number; passed: boolean; reason: string } | { error: string; error_type: JudgementErrorType };

/** Why a judge check has no score: the grader call failed, or its answer was unusable. */
export type JudgementErrorType = 'grader_call_failed' | 'grader_answer_invalid';

/** Everything a check may look at; built once per run by buildEvidence. */
export interface Evidence {
  /** All spans in start order, but tool calls by seq with each approval just before its call (span-order.ts). */
  spans: SpanRecord[];
  root: SpanRecord | null;
  trace_id: string | null;
  /** Parsed `agentcheck.resolved_config`; null when absent or not JSON. */
  resolved: ResolvedConfig | null;
  /** Every execute_tool span in call order (seq, else start time), nested ones included. */
  calls: ToolCall[];
  /** In the order of the calls they gated. */
  approvals: ApprovalRecord[];
  /** Number of chat spans (model calls). */
  turns: number;
  chat_span_ids: string[];
  usage: { input_tokens: number; output_tokens: number };
  stop_reason: string | null;
  output: string;
  flow_state: FlowStateEvidence | null;
  transcript: Message[] | null;
  workspace_dir: string | null;
  /** The scenario's `expect.error_tokens`, used by no_tool_errors unless it names its own; null = defaults. */
  error_tokens: readonly string[] | null;
  /** Duration of the root span. */
  duration_ms: number;
  /** Why the spans cannot be trusted as a whole run, or null when they can. */
  incomplete: string | null;
  /** Grader answers by judge check id (`judge#2`); empty when the scenario has no judge checks. */
  judgements: Record<string, Judgement>;
}

/** What buildEvidence needs: the spans of one run plus what only the runner knows. */
export interface EvidenceInput {
  spans: readonly SpanRecord[];
  transcript?: Message[];
  output?: string;
  workspaceDir?: string;
  /** The scenario's error tokens (docs/verdicts.md, The test_run verdict), when it overrides the defaults. */
  errorTokens?: readonly string[];
  /** Grader answers by judge check id. */
  judgements?: Record<string, Judgement>;
}
