import type { SpanRecord } from '../../src/spans/span-record.js';

/** An ended internal span record, `duration` ms long, with these attributes (tests building traces by hand). */
export function spanRecord(
  trace: string,
  id: string,
  parent: string | null,
  name: string,
  start: number,
  duration: number,
  attributes: SpanRecord['attributes'] = {},
  status: SpanRecord['status'] = 'unset',
): SpanRecord {
  return {
    trace_id: trace,
    span_id: id,
    parent_id: parent,
    name,
    kind: 'internal',
    status,
    start_ms: start,
    end_ms: start + duration,
    duration_ms: duration,
    attributes,
    ended: true,
  };
}
