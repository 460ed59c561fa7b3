import { ATTR, SPAN } from '../spans/conventions.js';
import type { SpanRecord } from '../spans/span-record.js';
import { numberAttr, operationOf, stringAttr } from './span-kind.js';

/** A run's spans in evidence order, and for each approval the seq of the call it gated. */
export interface SpanOrder {
  spans: SpanRecord[];
  /** Approval span id -> `agentcheck.tool.seq` of its execute_tool span (same call id). */
  gatedSeq: Map<string, number>;
}

/** A tool call's start order (`agentcheck.tool.seq`), or null on spans written before it existed. */
export function toolSeq(span: SpanRecord): number | null {
  return operationOf(span) === SPAN.executeTool ? numberAttr(span, ATTR.toolSeq) : null;
}

/**
 * Orders one run's spans by start time, except tool calls: start times tie (or come out in
 * completion order) for one response's parallel calls and for a parent and its nested calls,
 * so calls follow `agentcheck.tool.seq`, an approval sits just before the call it gated, and
 * calls without seq (an external agent's own, older spans.jsonl) go by start time, then the
 * order an external agent's spans arrived in, then span id. Every other span keeps
 * its place in time order.
 */
export function orderSpans(spans: readonly SpanRecord[]): SpanOrder {
  // Stable: spans that are not tool calls and tie keep the order they were recorded in (end order).
  const byTime = [...spans].sort((a, b) => a.start_ms - b.start_ms);
  const { keys, gatedSeq } = seqKeys(byTime);
  // Calls with seq (and their approvals) are reordered only among the positions they hold, so
  // a chat span or a plan step never moves; seq and start time agree except where times tie.
  const withSeq = refill(
    byTime,
    (span) => keys.has(span),
    (a, b) => keys.get(a)! - keys.get(b)!,
  );
  const withoutSeq = (span: SpanRecord) => operationOf(span) === SPAN.executeTool && !keys.has(span);
  return { spans: refill(withSeq, withoutSeq, byStartThenId), gatedSeq };
}

/** Sort keys: a call's seq, an approval's gated call's seq minus a half (just before it). */
function seqKeys(byTime: readonly SpanRecord[]): { keys: Map<SpanRecord, number>; gatedSeq: Map<string, number> } {
  const keys = new Map<SpanRecord, number>();
  const byCall = new Map<string, SpanRecord[]>();
  for (const span of byTime) {
    const seq = toolSeq(span);
    if (seq === null) continue;
    keys.set(span, seq);
    const id = stringAttr(span, ATTR.toolCallId);
    if (id === null) continue;
    const key = callKey(span, id);
    const list = byCall.get(key);
    if (list) list.push(span);
    else byCall.set(key, [span]);
  }
  for (const list of byCall.values()) list.sort((a, b) => keys.get(a)! - keys.get(b)!);

  // An approval is recorded just before the execute_tool span of the same call id and parent.
  // Call ids can repeat across turns (a provider's own ids), so each approval claims the first
  // unclaimed such call that did not start before it.
  const gatedSeq = new Map<string, number>();
  const claimed = new Set<SpanRecord>();
  for (const span of byTime) {
    if (operationOf(span) !== SPAN.approval) continue;
    const id = stringAttr(span, ATTR.toolCallId);
    const call = id === null ? undefined : byCall.get(callKey(span, id))?.find((c) => !claimed.has(c) && c.start_ms >= span.start_ms);
    if (!call) continue;
    claimed.add(call);
    const seq = keys.get(call)!;
    keys.set(span, seq - 0.5);
    gatedSeq.set(span.span_id, seq);
  }
  return { keys, gatedSeq };
}

function callKey(span: SpanRecord, callId: string): string {
  return `${span.parent_id ?? ''}\u0000${callId}`;
}

/** Sorts the members of `spans` among the positions they hold; other spans stay put. */
function refill(spans: SpanRecord[], member: (span: SpanRecord) => boolean, compare: (a: SpanRecord, b: SpanRecord) => number): SpanRecord[] {
  const slots: number[] = [];
  const members: SpanRecord[] = [];
  spans.forEach((span, index) => {
    if (!member(span)) return;
    slots.push(index);
    members.push(span);
  });
  if (members.length < 2) return spans;
  members.sort(compare);
  const out = [...spans];
  slots.forEach((slot, index) => (out[slot] = members[index]));
  return out;
}

function byStartThenId(a: SpanRecord, b: SpanRecord): number {
  return a.start_ms - b.start_ms || byArrival(a, b) || (a.span_id < b.span_id ? -1 : a.span_id > b.span_id ? 1 : 0);
}

/** An external agent's spans that tie keep the order they arrived in (export order), not a random id's. */
function byArrival(a: SpanRecord, b: SpanRecord): number {
  const first = numberAttr(a, ATTR.externalArrival);
  const second = numberAttr(b, ATTR.externalArrival);
  return first === null || second === null ? 0 : first - second;
}
