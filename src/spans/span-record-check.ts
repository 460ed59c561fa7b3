import type { Locator } from '../config/assert-format.js';
import type { ConfigError } from '../config/errors.js';
import { describeValue } from '../config/describe-value.js';
import type { PathSegments } from '../config/source.js';
import type { SpanRecord } from './span-record.js';

/** What is wrong with a value given as a span record, relative to the record, or null when nothing is. */
export interface SpanRecordProblem {
  path: PathSegments;
  expected: string;
}

/** Every key a span record has (docs/spans.md): a file of records agentcheck wrote holds no other. Listed against the type, so none is missed. */
export const SPAN_RECORD_KEYS = Object.keys({
  trace_id: true,
  span_id: true,
  parent_id: true,
  name: true,
  kind: true,
  status: true,
  status_message: true,
  start_ms: true,
  end_ms: true,
  duration_ms: true,
  attributes: true,
  events: true,
  ended: true,
} satisfies Record<keyof SpanRecord, true>);

/** The fields evidence and queries read without a guard: a record lacking one would crash them. */
const STRING_FIELDS = ['trace_id', 'span_id', 'name'] as const;

/**
 * Why `value` is not a span record (docs/spans.md), or null: an object with string ids and
 * name, a parent id or null, and an attributes object.
 */
export function spanRecordProblem(value: unknown): SpanRecordProblem | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { path: [], expected: `expected a span record {trace_id, span_id, name, attributes, ...}, got ${describeValue(value)}` };
  }
  const record = value as Record<string, unknown>;
  for (const field of STRING_FIELDS) {
    if (typeof record[field] !== 'string')
      return { path: [field], expected: `expected a string (a span record's ${field}), got ${describeValue(record[field])}` };
  }
  if (record.parent_id !== null && typeof record.parent_id !== 'string') {
    return { path: ['parent_id'], expected: `expected a string or null (a span record's parent_id), got ${describeValue(record.parent_id)}` };
  }
  const attributes = record.attributes;
  if (typeof attributes !== 'object' || attributes === null || Array.isArray(attributes)) {
    return { path: ['attributes'], expected: `expected an object (a span record's attributes), got ${describeValue(attributes)}` };
  }
  return null;
}

/** spanRecordProblem(value) === null, written out: a query checks every span, a million is common. */
export function isSpanRecord(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Partial<SpanRecord>;
  const attributes = record.attributes;
  return (
    typeof record.trace_id === 'string' &&
    typeof record.span_id === 'string' &&
    typeof record.name === 'string' &&
    (record.parent_id === null || typeof record.parent_id === 'string') &&
    typeof attributes === 'object' &&
    attributes !== null &&
    !Array.isArray(attributes) &&
    !Array.isArray(value)
  );
}

/**
 * A library caller's list of span records, checked: a located ConfigError at `at` for a value
 * that is not a list, or at the first record that is not a span record.
 */
export function spanListProblem(spans: unknown, at: PathSegments, locate: Locator): ConfigError | null {
  if (!Array.isArray(spans)) {
    // readSpansJsonl returns a promise: the usual slip is a missing await.
    const got = spans instanceof Promise ? 'a Promise (await readSpansJsonl(file) first)' : describeValue(spans);
    return locate(at, `expected an array of span records (readSpansJsonl), got ${got}`);
  }
  for (let index = 0; index < spans.length; index++) {
    if (isSpanRecord(spans[index])) continue;
    const problem = spanRecordProblem(spans[index])!;
    return locate([...at, index, ...problem.path], problem.expected);
  }
  return null;
}
