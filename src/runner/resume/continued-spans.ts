import { ATTR, SPAN } from '../../spans/conventions.js';
import type { SpanRecord } from '../../spans/span-record.js';
import { operationOf, stringAttr } from '../../verdicts/span-kind.js';

/**
 * The flow spans a resumed run records again for what was under way at its pause: each segment
 * has its own `invoke_workflow`, and the component that paused (a human_input waiting for its
 * answer, an agent or step component at a gate) starts again in the next segment. Returns, for
 * each such later span, the span id of the first one it continues, so a joined run has one
 * workflow and one span per component execution, as a run that never paused (docs/formats.md,
 * Pause and resume).
 */
export function continuedSpans(segments: ReadonlyArray<readonly SpanRecord[]>): Map<string, string> {
  const continues = new Map<string, string>();
  const canonical = (id: string) => continues.get(id) ?? id;
  for (let index = 1; index < segments.length; index++) {
    const before = segments[index - 1];
    const after = segments[index];
    const workflowBefore = before.find(isWorkflow);
    const workflowAfter = after.find(isWorkflow);
    if (workflowBefore && workflowAfter) continues.set(workflowAfter.span_id, canonical(workflowBefore.span_id));
    // The component under way at the pause is the last one the paused segment started; the
    // resumed segment starts with it again.
    const paused = lastStarted(before.filter(isComponent));
    const resumed = firstStarted(after.filter(isComponent));
    if (paused && resumed && componentName(paused) === componentName(resumed)) continues.set(resumed.span_id, canonical(paused.span_id));
  }
  return continues;
}

function isWorkflow(span: SpanRecord): boolean {
  return operationOf(span) === SPAN.invokeWorkflow;
}

function isComponent(span: SpanRecord): boolean {
  return operationOf(span) === SPAN.component;
}

function componentName(span: SpanRecord): string | null {
  return stringAttr(span, ATTR.componentName);
}

function lastStarted(spans: readonly SpanRecord[]): SpanRecord | undefined {
  return spans.reduce<SpanRecord | undefined>((latest, span) => (!latest || span.start_ms >= latest.start_ms ? span : latest), undefined);
}

function firstStarted(spans: readonly SpanRecord[]): SpanRecord | undefined {
  return spans.reduce<SpanRecord | undefined>((earliest, span) => (!earliest || span.start_ms < earliest.start_ms ? span : earliest), undefined);
}
