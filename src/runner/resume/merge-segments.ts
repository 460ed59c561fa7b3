import { ATTR, EVIDENCE_ATTR, SPAN } from '../../spans/conventions.js';
import type { SpanRecord } from '../../spans/span-record.js';
import { isInvokeAgent, operationOf, stringAttr } from '../../verdicts/span-kind.js';
import { toolSeq } from '../../verdicts/span-order.js';
import { continuedSpans } from './continued-spans.js';
import { inSequence } from './segment-times.js';

/**
 * Joins the spans of a run that paused and was resumed (one segment per invoke or resume) into
 * one trace, so checks judge the whole run as if it had never stopped: every span takes the
 * first segment's trace id, each segment's times follow the segment before it (segment-times.ts),
 * later segments hang under the first root, the root spans the whole run and carries the last
 * segment's outcome (stop reason, output, cumulative usage). A call left waiting at a pause (its
 * `pending` approval and execute_tool spans) is dropped when a later segment records the same
 * call again with its answer; one no later segment records (a resume that ended before anything
 * ran, so the run still waits there) stays, still pending. A flow's workflow and the component
 * under way at the pause continue as one span each (continued-spans.ts).
 */
export function mergeSegments(recorded: ReadonlyArray<readonly SpanRecord[]>): SpanRecord[] {
  if (recorded.length === 1) return [...recorded[0]];
  const recordedRoots = recorded.map(rootOf);
  // Without a root per segment there is nothing to join under: the evidence reports the spans incomplete.
  if (recordedRoots.some((root) => root === undefined)) return recorded.flat();
  // Each segment's clock is its own: a later one may read earlier than the one it continues.
  const segments = inSequence(recorded, recordedRoots as SpanRecord[]);
  const roots = segments.map(rootOf);
  const first = roots[0] as SpanRecord;
  const last = roots[roots.length - 1] as SpanRecord;
  const merged: SpanRecord[] = [];
  const seqs = new CallSeqs();
  // A flow's workflow and paused component, recorded again by the next segment, are one span each.
  const continues = continuedSpans(segments);
  const latest = new Map<string, SpanRecord>();
  for (const spans of segments) for (const span of spans) if (continues.has(span.span_id)) latest.set(continues.get(span.span_id) as string, span);
  const recordedAfter = callsRecordedAfter(segments);
  segments.forEach((spans, index) => {
    const root = roots[index] as SpanRecord;
    const superseded = index < segments.length - 1;
    seqs.startSegment(spans);
    for (const span of spans) {
      if (span === root || continues.has(span.span_id)) continue;
      if (superseded && isPending(span) && answeredLater(span, recordedAfter[index])) {
        seqs.leftWaiting(span);
        continue;
      }
      const parent = span.parent_id === root.span_id ? first.span_id : span.parent_id === null ? null : (continues.get(span.parent_id) ?? span.parent_id);
      const joined = continuedTo(span, latest.get(span.span_id));
      merged.push(seqs.placed({ ...joined, trace_id: first.trace_id, parent_id: parent }));
    }
  });
  const attributes: SpanRecord['attributes'] = { ...first.attributes, ...last.attributes, [ATTR.conversationId]: first.attributes[ATTR.conversationId] };
  delete attributes[ATTR.resumedFrom];
  const root: SpanRecord = {
    ...first,
    status: last.status,
    end_ms: last.end_ms,
    duration_ms: last.end_ms - first.start_ms,
    attributes,
    ended: roots.every((span) => span?.ended),
  };
  if (last.status_message === undefined) delete root.status_message;
  else root.status_message = last.status_message;
  return [root, ...merged];
}

/** A segment's root: its invoke_agent span without a parent. */
function rootOf(spans: readonly SpanRecord[]): SpanRecord | undefined {
  return spans.find((span) => span.parent_id === null && isInvokeAgent(span));
}

/**
 * Tool call order (`agentcheck.tool.seq`) across segments. Each segment's calls come after the
 * earlier segments' (a resume in another process numbers its calls from 1 again), and a call
 * that waited at a pause keeps its place in its response when the next segment answers it, as
 * if the run had never stopped (docs/formats.md, Pause and resume).
 */
class CallSeqs {
  private last = 0;
  private shift = 0;
  private readonly waiting = new Map<string, number>();

  /** Numbers the next segment's calls after every call so far. */
  startSegment(spans: readonly SpanRecord[]): void {
    const own = spans.map(toolSeq).filter((seq): seq is number => seq !== null);
    // The first segment keeps its numbers.
    this.shift = own.length && this.last > 0 ? Math.max(0, this.last - Math.min(...own) + 1) : 0;
  }

  /** A call left waiting: the segment that answers it takes its place. */
  leftWaiting(span: SpanRecord): void {
    const seq = toolSeq(span);
    const id = stringAttr(span, ATTR.toolCallId);
    if (seq === null || id === null) return;
    this.waiting.set(waitingKey(span, id), seq + this.shift);
    this.last = Math.max(this.last, seq + this.shift);
  }

  /** The span with its call order in the joined run. */
  placed(span: SpanRecord): SpanRecord {
    const seq = toolSeq(span);
    if (seq === null) return span;
    const id = stringAttr(span, ATTR.toolCallId);
    const key = id === null ? undefined : waitingKey(span, id);
    const carried = key === undefined ? undefined : this.waiting.get(key);
    if (key !== undefined) this.waiting.delete(key);
    const placed = carried ?? seq + this.shift;
    this.last = Math.max(this.last, placed);
    return placed === seq ? span : { ...span, attributes: { ...span.attributes, [ATTR.toolSeq]: placed } };
  }
}

function waitingKey(span: SpanRecord, callId: string): string {
  return `${stringAttr(span, ATTR.toolName) ?? ''}\u0000${callId}`;
}

/** For each segment, the calls (by waitingKey) that the segments after it record. */
function callsRecordedAfter(segments: ReadonlyArray<readonly SpanRecord[]>): Array<ReadonlySet<string>> {
  const after: Array<ReadonlySet<string>> = [];
  const later = new Set<string>();
  for (let index = segments.length - 1; index >= 0; index--) {
    after[index] = new Set(later);
    for (const span of segments[index]) {
      const id = stringAttr(span, ATTR.toolCallId);
      if (id !== null) later.add(waitingKey(span, id));
    }
  }
  return after;
}

/**
 * Whether a later segment records a waiting call again (with its answer). A call without an id
 * cannot be matched, so it is taken as answered, as the next segment's resume answers its pause.
 */
function answeredLater(span: SpanRecord, recordedAfter: ReadonlySet<string>): boolean {
  const id = stringAttr(span, ATTR.toolCallId);
  return id === null || recordedAfter.has(waitingKey(span, id));
}

/** A span the later segments continued: its start, with the last one's end, status and attributes. */
function continuedTo(span: SpanRecord, last: SpanRecord | undefined): SpanRecord {
  if (!last) return span;
  const joined: SpanRecord = {
    ...span,
    status: last.status,
    end_ms: last.end_ms,
    duration_ms: last.end_ms - span.start_ms,
    attributes: { ...span.attributes, ...last.attributes },
    ended: last.ended,
  };
  if (last.status_message === undefined) delete joined.status_message;
  else joined.status_message = last.status_message;
  return joined;
}

/** A call that waited for an answer when its segment paused. */
function isPending(span: SpanRecord): boolean {
  const operation = operationOf(span);
  if (operation === SPAN.executeTool) return stringAttr(span, EVIDENCE_ATTR.toolOutcome) === 'pending';
  if (operation === SPAN.approval) return stringAttr(span, ATTR.approvalDecision) === 'pending';
  return false;
}
