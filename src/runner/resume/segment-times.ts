import type { SpanRecord } from '../../spans/span-record.js';

/**
 * The segments of a resumed run on one timeline: each segment's spans move later by as much as
 * its root started before the previous segment's root ended. Each segment is a trace of its own,
 * on its own clock: its root reads the wall clock, to the whole millisecond, when it starts
 * (docs/spans.md), and a resume in another process reads that process's. So a resume that began
 * right after its pause can read up to a millisecond before the pause's last spans, or any amount
 * when the wall clock was set back in between. It ran after the pause, so the joined trace keeps
 * every later segment after the earlier ones, and its root spans the whole run (docs/formats.md,
 * Pause and resume). `roots` holds each segment's root.
 */
export function inSequence(segments: ReadonlyArray<readonly SpanRecord[]>, roots: readonly SpanRecord[]): Array<readonly SpanRecord[]> {
  let previousEnd = -Infinity;
  return segments.map((spans, index) => {
    const root = roots[index];
    const shift = Math.max(0, previousEnd - root.start_ms);
    previousEnd = root.end_ms + shift;
    return shift === 0 ? spans : spans.map((span) => shifted(span, shift));
  });
}

/** The span `ms` later: its start, end and events' times (its duration is its own). */
function shifted(span: SpanRecord, ms: number): SpanRecord {
  const moved: SpanRecord = { ...span, start_ms: span.start_ms + ms, end_ms: span.end_ms + ms };
  if (span.events) moved.events = span.events.map((event) => ({ ...event, time_ms: event.time_ms + ms }));
  return moved;
}
