import type { ResolvedConfig } from '../engine/resolve-config.js';
import { ATTR, EVIDENCE_ATTR, SPAN } from '../spans/conventions.js';
import type { SpanRecord } from '../spans/span-record.js';
import { approvalFrom, toolCallFrom } from './evidence-calls.js';
import type { ApprovalRecord, Evidence, EvidenceInput, FlowStateEvidence, ToolCall } from './evidence-types.js';
import { validateEvidenceInput } from './score-input.js';
import { isInvokeAgent, numberAttr, operationOf, parseJsonOrRaw, stringAttr } from './span-kind.js';
import { orderSpans } from './span-order.js';

export type { ApprovalRecord, Evidence, EvidenceInput, Judgement, ToolCall } from './evidence-types.js';

/**
 * Builds the evidence of one run from its spans (plus the transcript, output and workspace
 * when the runner has them). Pure: a saved spans.jsonl gives the same evidence as a live run.
 * Input that is not that (a library caller's) is a ConfigError naming the field.
 */
export function buildEvidence(input: EvidenceInput): Evidence {
  validateEvidenceInput(input);
  // Tool calls by agentcheck.tool.seq, not start time: parallel and nested calls tie on it.
  const { spans, gatedSeq } = orderSpans(withoutGrading(input.spans));
  const byId = new Map<string, SpanRecord>();
  for (const span of spans) byId.set(span.span_id, span);

  const roots = spans.filter((span) => span.parent_id === null);
  const root = roots.find(isInvokeAgent) ?? null;
  const calls: ToolCall[] = [];
  const approvals: ApprovalRecord[] = [];
  const chats: SpanRecord[] = [];
  for (const span of spans) {
    const op = operationOf(span);
    if (op === SPAN.executeTool) calls.push(toolCallFrom(span, byId));
    else if (op === SPAN.approval) approvals.push(approvalFrom(span, gatedSeq.get(span.span_id) ?? null));
    else if (op === SPAN.chat) chats.push(span);
  }

  return {
    spans,
    root,
    trace_id: root?.trace_id ?? spans[0]?.trace_id ?? null,
    resolved: root ? (parseObject(stringAttr(root, ATTR.resolvedConfig)) as ResolvedConfig | null) : null,
    calls,
    approvals,
    turns: chats.length,
    chat_span_ids: chats.map((span) => span.span_id),
    usage: usageOf(root, chats),
    stop_reason: root ? stringAttr(root, ATTR.stopReason) : null,
    output: input.output ?? (root ? stringAttr(root, EVIDENCE_ATTR.output) : null) ?? lastAssistantText(input) ?? '',
    flow_state: root ? (parseObject(stringAttr(root, EVIDENCE_ATTR.flowState)) as FlowStateEvidence | null) : null,
    transcript: input.transcript ?? null,
    workspace_dir: input.workspaceDir ?? null,
    error_tokens: input.errorTokens ?? null,
    duration_ms: root?.duration_ms ?? 0,
    incomplete: incompleteReason(spans, roots, byId),
    judgements: input.judgements ?? {},
  };
}

/**
 * The spans without judge grading calls: each is a trace of its own under an `evaluate` root
 * (docs/spans.md), and its model call is never one of the agent's turns, tokens or tools.
 */
function withoutGrading(spans: readonly SpanRecord[]): readonly SpanRecord[] {
  const grading = new Set(spans.filter((span) => span.parent_id === null && operationOf(span) === SPAN.evaluate).map((span) => span.trace_id));
  return grading.size ? spans.filter((span) => !grading.has(span.trace_id)) : spans;
}

/** The calls a check sees: the digest's (model and flow-step calls), plus plan/chain calls when `nested`. */
export function visibleCalls(evidence: Evidence, nested = false): ToolCall[] {
  return nested ? evidence.calls : evidence.calls.filter((call) => !call.nested);
}

/** Why the spans do not make one whole run, or null. */
function incompleteReason(spans: SpanRecord[], roots: SpanRecord[], byId: Map<string, SpanRecord>): string | null {
  if (spans.length === 0) return 'no spans were collected';
  if (roots.length === 0) return 'no root span (every span has a parent)';
  if (roots.length > 1)
    return `${roots.length} root spans (${roots
      .slice(0, 3)
      .map((span) => span.name)
      .join(', ')}); expected one invoke`;
  if (!isInvokeAgent(roots[0])) return `the root span is "${roots[0].name}", not invoke_agent`;
  const open = spans.find((span) => !span.ended);
  if (open) return `span "${open.name}" (${open.span_id}) had not ended when the spans were collected`;
  const orphan = spans.find((span) => span.parent_id !== null && !byId.has(span.parent_id));
  if (orphan) return `span "${orphan.name}" (${orphan.span_id}) has parent ${orphan.parent_id}, which is not among the spans`;
  return null;
}

function usageOf(root: SpanRecord | null, chats: SpanRecord[]): Evidence['usage'] {
  const input = root ? numberAttr(root, ATTR.inputTokens) : null;
  const output = root ? numberAttr(root, ATTR.outputTokens) : null;
  if (input !== null && output !== null) return { input_tokens: input, output_tokens: output };
  // No totals on the root (an interrupted run): add up the model calls.
  let inputSum = 0;
  let outputSum = 0;
  for (const chat of chats) {
    inputSum += numberAttr(chat, ATTR.inputTokens) ?? 0;
    outputSum += numberAttr(chat, ATTR.outputTokens) ?? 0;
  }
  return { input_tokens: input ?? inputSum, output_tokens: output ?? outputSum };
}

function parseObject(text: string | null): Record<string, unknown> | null {
  const value = parseJsonOrRaw(text);
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

function lastAssistantText(input: EvidenceInput): string | null {
  const messages = input.transcript ?? [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message.role === 'assistant') return message.content;
  }
  return null;
}
