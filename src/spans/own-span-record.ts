import type { AttributeValue, SpanRecord } from './span-record.js';

type SpanEvent = NonNullable<SpanRecord['events']>[number];

/**
 * A span record this process made from its own span (RecordingSpan.toRecord): a SpanRecord with
 * its fields in a fixed order, whose ids are lowercase hex (span-ids.ts, or a parent's checked by
 * the tracer) and whose kind and status are the record's keywords. Being an instance of this class
 * is what lets spans.jsonl write it without JSON.stringify's walk of every key (spanJsonLine).
 */
export class OwnSpanRecord implements SpanRecord {
  // Declared only: defined as fields, they would come first in the record's key order.
  declare status_message?: string;
  declare events?: SpanEvent[];

  constructor(
    public trace_id: string,
    public span_id: string,
    public parent_id: string | null,
    public name: string,
    public kind: SpanRecord['kind'],
    public status: SpanRecord['status'],
    public start_ms: number,
    public end_ms: number,
    public duration_ms: number,
    public attributes: Record<string, AttributeValue>,
    public ended: boolean,
  ) {}
}

/**
 * One span record as JSON text, the same as JSON.stringify(record) gives, for records straight from
 * the span store (a run's SpansFile; a caller's records may have been changed since, and go through
 * JSON.stringify). A record of this process's own spans is written field by field: its ids, kind
 * and status need no escaping, and JSON.stringify's walk of every key was a tenth of span recording.
 */
export function spanJsonLine(record: SpanRecord): string {
  if (!(record instanceof OwnSpanRecord)) return JSON.stringify(record);
  const parent = record.parent_id === null ? 'null' : `"${record.parent_id}"`;
  let line = `{"trace_id":"${record.trace_id}","span_id":"${record.span_id}","parent_id":${parent},"name":${JSON.stringify(record.name)},"kind":"${record.kind}","status":"${record.status}","start_ms":${number(record.start_ms)},"end_ms":${number(record.end_ms)},"duration_ms":${number(record.duration_ms)},"attributes":${JSON.stringify(record.attributes)},"ended":${record.ended}`;
  // Set after construction, so JSON.stringify writes them last too; an absent field is left out.
  if (record.status_message !== undefined) line += `,"status_message":${JSON.stringify(record.status_message)}`;
  if (record.events !== undefined) line += `,"events":${JSON.stringify(record.events)}`;
  return `${line}}`;
}

/** A number as JSON writes it: NaN and the infinities as null. */
function number(value: number): string {
  return Number.isFinite(value) ? `${value}` : 'null';
}
