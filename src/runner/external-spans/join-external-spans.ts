import { ATTR, EVIDENCE_ATTR, SPAN } from '../../spans/conventions.js';
import { mapExternalSpan } from '../../spans/external-span-mapping.js';
import type { SpanRecord } from '../../spans/span-record.js';
import { isInvokeAgent, operationOf, stringAttr } from '../../verdicts/span-kind.js';

/** The external agent's spans made part of the run, and what was left out. */
export interface JoinedExternalSpans {
  spans: SpanRecord[];
  /** Mapped execute_tool spans left out because the bridge recorded the same call (same call id). */
  duplicateCalls: number;
  /** Model-call spans left out because the bridge recorded the model calls. */
  duplicateChats: number;
}

/**
 * Joins the spans an external agent exported to the run's own spans (docs/external-agents.md,
 * Its own spans): each is mapped into agentcheck's conventions, numbered in arrival order
 * (`received` is in that order), takes the run's trace id, and a
 * span whose parent is neither among the agent's spans nor the run's hangs under the run's
 * `invoke_agent` root (an agent that ignored TRACEPARENT still joins the run). Where the model
 * bridge recorded a call, its span is the one counted: a mapped `execute_tool` with a call id the
 * bridge recorded is left out, and so are the agent's model-call spans when the bridge saw model
 * calls; their children move up to the nearest span kept. The agent knows best whether its
 * tool failed: when its span of a call is an error and the bridge's is not, the bridge's span
 * (in `runSpans`) is marked failed with the agent's error type and message.
 */
export function joinExternalSpans(received: readonly SpanRecord[], runSpans: readonly SpanRecord[]): JoinedExternalSpans {
  const root = runSpans.find((span) => span.parent_id === null && isInvokeAgent(span));
  if (!root) return { spans: [], duplicateCalls: 0, duplicateChats: 0 };
  const runIds = new Set(runSpans.map((span) => span.span_id));
  const bridgeCalls = new Map<string, SpanRecord>();
  for (const span of runSpans) {
    const callId = operationOf(span) === SPAN.executeTool ? stringAttr(span, ATTR.toolCallId) : null;
    if (callId !== null) bridgeCalls.set(callId, span);
  }
  const bridgeSawModel = runSpans.some((span) => operationOf(span) === SPAN.chat);

  // A span id the run already uses cannot be the agent's: it would make two spans one.
  const mapped = received
    .filter((span) => !runIds.has(span.span_id))
    .map((span, index) => {
      const out = mapExternalSpan(span);
      // Spans that start at the same instant keep the order they arrived in (docs/external-agents.md).
      out.attributes[ATTR.externalArrival] = index;
      return out;
    });
  const byId = new Map(mapped.map((span) => [span.span_id, span]));
  let duplicateCalls = 0;
  let duplicateChats = 0;
  const dropped = new Set<string>();
  for (const span of mapped) {
    const op = operationOf(span);
    const callId = stringAttr(span, ATTR.toolCallId);
    const bridgeCall = op === SPAN.executeTool && callId !== null ? bridgeCalls.get(callId) : undefined;
    if (bridgeCall) {
      duplicateCalls++;
      if (span.status === 'error' && bridgeCall.status !== 'error') markFailed(bridgeCall, span);
    } else if (op === SPAN.chat && bridgeSawModel) duplicateChats++;
    else continue;
    dropped.add(span.span_id);
  }

  const kept = mapped.filter((span) => !dropped.has(span.span_id));
  const parentOf = (span: SpanRecord): string => {
    // Up past dropped spans; a parent chain that loops (malformed input) ends at the root.
    const seen = new Set<string>([span.span_id]);
    let parent = span.parent_id;
    while (parent !== null && dropped.has(parent) && !seen.has(parent)) {
      seen.add(parent);
      parent = byId.get(parent)?.parent_id ?? null;
    }
    if (parent === null || seen.has(parent) || (!byId.has(parent) && !runIds.has(parent))) return root.span_id;
    return parent;
  };
  const spans = kept.map((span) => ({ ...span, trace_id: root.trace_id, parent_id: parentOf(span) }));
  return { spans: breakCycles(spans, root.span_id), duplicateCalls, duplicateChats };
}

/** Marks the bridge's span of a call failed, as the agent's own span of it says. */
function markFailed(bridgeCall: SpanRecord, agentSpan: SpanRecord): void {
  bridgeCall.status = 'error';
  if (agentSpan.status_message !== undefined) bridgeCall.status_message = agentSpan.status_message;
  bridgeCall.attributes = {
    ...bridgeCall.attributes,
    [ATTR.errorType]: stringAttr(agentSpan, ATTR.errorType) ?? 'error',
    [ATTR.toolIsError]: true,
    [EVIDENCE_ATTR.toolOutcome]: 'error',
  };
}

/** Re-hangs under the root any span whose parent chain loops back to itself (the agent's ids are not trusted). */
function breakCycles(spans: SpanRecord[], rootId: string): SpanRecord[] {
  const byId = new Map(spans.map((span) => [span.span_id, span]));
  const safe = new Set<string>();
  for (const span of spans) {
    const path: SpanRecord[] = [];
    const onPath = new Set<string>();
    let current: SpanRecord | undefined = span;
    while (current && !safe.has(current.span_id) && !onPath.has(current.span_id)) {
      path.push(current);
      onPath.add(current.span_id);
      current = current.parent_id === null ? undefined : byId.get(current.parent_id);
    }
    // Reached a span seen on this walk: the last one walked closes the loop, so it moves to the root.
    if (current && onPath.has(current.span_id)) path[path.length - 1].parent_id = rootId;
    for (const walked of path) safe.add(walked.span_id);
  }
  return spans;
}
