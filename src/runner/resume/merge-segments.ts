import { ATTR, EVIDENCE_ATTR, SPAN } from '../../spans/conventions.js';
import type { SpanRecord } from '../../spans/span-record.js';
import { isInvokeAgent, operationOf, stringAttr } from '../../verdicts/span-kind.js';

/**
 * Joins the spans of a run that paused and was resumed (one segment per invoke or resume) into
 * one trace, so checks judge the whole run as if it had never stopped: every span takes the
 * first segment's trace id, later segments hang under the first root, the root spans the whole
 * run and carries the last segment's outcome (stop reason, output, cumulative usage). A call
 * left waiting at a pause (its `pending` approval and execute_tool spans) is dropped: the next
 * segment records the same call again with its answer.
 */
export function mergeSegments(segments: ReadonlyArray<readonly SpanRecord[]>): SpanRecord[] {
  if (segments.length === 1) return [...segments[0]];
  const roots = segments.map((spans) => spans.find((span) => span.parent_id === null && isInvokeAgent(span)));
  // Without a root per segment there is nothing to join under: the evidence reports the spans incomplete.
  if (roots.some((root) => root === undefined)) return segments.flat();
  const first = roots[0] as SpanRecord;
  const last = roots[roots.length - 1] as SpanRecord;
  const merged: SpanRecord[] = [];
  segments.forEach((spans, index) => {
    const root = roots[index] as SpanRecord;
    const superseded = index < segments.length - 1;
    for (const span of spans) {
      if (span === root || (superseded && isPending(span))) continue;
      const parent = span.parent_id === root.span_id ? first.span_id : span.parent_id;
      merged.push({ ...span, trace_id: first.trace_id, parent_id: parent });
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

/** A call that waited for an answer when its segment paused. */
function isPending(span: SpanRecord): boolean {
  const operation = operationOf(span);
  if (operation === SPAN.executeTool) return stringAttr(span, EVIDENCE_ATTR.toolOutcome) === 'pending';
  if (operation === SPAN.approval) return stringAttr(span, ATTR.approvalDecision) === 'pending';
  return false;
}
