import type { Locator } from '../config/assert-format.js';
import type { ConfigError } from '../config/errors.js';
import { describeValue } from '../config/describe-value.js';
import { keysOf } from '../config/option-keys.js';
import type { PathSegments } from '../config/source.js';
import { FIELD_VALUES } from './query-types.js';
import type { SpanRecord } from './span-record.js';

/** What is wrong with a value given as a span record, relative to the record, or null when nothing is. */
export interface SpanRecordProblem {
  path: PathSegments;
  expected: string;
}

/** Every key a span record has (docs/spans.md): a file of records agentcheck wrote holds no other. Listed against the type, so none is missed. */
export const SPAN_RECORD_KEYS = keysOf<SpanRecord>({
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
});

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

/** The values a record's kind and status hold (SpanRecord), as the query language lists them. */
const KINDS: readonly string[] = FIELD_VALUES.kind;
const STATUSES: readonly string[] = FIELD_VALUES.status;
const TIME_FIELDS = ['start_ms', 'end_ms', 'duration_ms'] as const;

/**
 * Every way `value` falls short of a whole span record as agentcheck writes one (docs/spans.md):
 * spanRecordProblem's fields, then its kind and status values, times, `ended`, status message and
 * events. For records agentcheck wrote and reads back whole (a paused run's spans, scored with the
 * resumed run's), where a misspelt status would silently count a failed call as passed.
 */
export function wholeSpanRecordProblems(value: unknown): SpanRecordProblem[] {
  const first = spanRecordProblem(value);
  if (first && !first.path.length) return [first];
  const problems: SpanRecordProblem[] = first ? [first] : [];
  const record = value as Record<string, unknown>;
  const at = (path: PathSegments, expected: string, given: unknown) => problems.push({ path, expected: `${expected}, got ${describeValue(given)}` });
  if (!KINDS.includes(record.kind as string)) at(['kind'], `expected one of ${KINDS.join(', ')} (a span record's kind)`, record.kind);
  if (!STATUSES.includes(record.status as string)) at(['status'], `expected one of ${STATUSES.join(', ')} (a span record's status)`, record.status);
  if (record.status_message !== undefined && typeof record.status_message !== 'string')
    at(['status_message'], "expected a string (a span record's status_message)", record.status_message);
  for (const field of TIME_FIELDS) if (!Number.isFinite(record[field])) at([field], `expected a number (a span record's ${field}, in ms)`, record[field]);
  if (typeof record.ended !== 'boolean') at(['ended'], 'expected true or false (whether the span had ended)', record.ended);
  if (record.events !== undefined) eventProblems(record.events, at);
  return problems;
}

/** A record's events: a list of `{name, time_ms, attributes?}`. */
function eventProblems(events: unknown, at: (path: PathSegments, expected: string, given: unknown) => void): void {
  if (!Array.isArray(events)) {
    at(['events'], "expected a list (a span record's events)", events);
    return;
  }
  events.forEach((event, index) => {
    if (typeof event !== 'object' || event === null || Array.isArray(event)) {
      at(['events', index], 'expected an event {name, time_ms, attributes?}', event);
      return;
    }
    const { name, time_ms: time, attributes } = event as Record<string, unknown>;
    if (typeof name !== 'string') at(['events', index, 'name'], "expected a string (an event's name)", name);
    if (!Number.isFinite(time)) at(['events', index, 'time_ms'], "expected a number (an event's time, in ms)", time);
    if (attributes !== undefined && (typeof attributes !== 'object' || attributes === null || Array.isArray(attributes)))
      at(['events', index, 'attributes'], "expected an object (an event's attributes)", attributes);
  });
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
