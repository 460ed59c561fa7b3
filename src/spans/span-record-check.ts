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
 * spanRecordProblem's fields, then its kind and status values, finite times, `ended`, status
 * message, attribute values and events. For records read or written whole (a paused run's spans,
 * scored with the resumed run's; spansToJsonl; readSpansJsonl), where a misspelt status would
 * silently count a failed call as passed.
 */
export function wholeSpanRecordProblems(value: unknown): SpanRecordProblem[] {
  const first = spanRecordProblem(value);
  if (first && !first.path.length) return [first];
  const problems: SpanRecordProblem[] = first ? [first] : [];
  const record = value as Record<string, unknown>;
  const at: At = (path, expected, given) => problems.push({ path, expected: `${expected}, got ${describeValue(given)}` });
  if (!KINDS.includes(record.kind as string)) at(['kind'], `expected one of ${KINDS.join(', ')} (a span record's kind)`, record.kind);
  if (!STATUSES.includes(record.status as string)) at(['status'], `expected one of ${STATUSES.join(', ')} (a span record's status)`, record.status);
  if (record.status_message !== undefined && typeof record.status_message !== 'string')
    at(['status_message'], "expected a string (a span record's status_message)", record.status_message);
  for (const field of TIME_FIELDS)
    if (!Number.isFinite(record[field])) at([field], `expected a finite number (a span record's ${field}, in ms)`, record[field]);
  if (typeof record.ended !== 'boolean') at(['ended'], 'expected true or false (whether the span had ended)', record.ended);
  if (isObject(record.attributes)) attributeProblems(record.attributes, ['attributes'], at);
  if (record.events !== undefined) eventProblems(record.events, at);
  return problems;
}

type At = (path: PathSegments, expected: string, given: unknown) => void;

/** A record's events: a list of `{name, time_ms, attributes?}`. */
function eventProblems(events: unknown, at: At): void {
  if (!Array.isArray(events)) {
    at(['events'], "expected a list (a span record's events)", events);
    return;
  }
  events.forEach((event, index) => {
    if (!isObject(event)) {
      at(['events', index], 'expected an event {name, time_ms, attributes?}', event);
      return;
    }
    const { name, time_ms: time, attributes } = event;
    if (typeof name !== 'string') at(['events', index, 'name'], "expected a string (an event's name)", name);
    if (!Number.isFinite(time)) at(['events', index, 'time_ms'], "expected a finite number (an event's time, in ms)", time);
    if (isObject(attributes)) attributeProblems(attributes, ['events', index, 'attributes'], at);
    else if (attributes !== undefined) at(['events', index, 'attributes'], "expected an object (an event's attributes)", attributes);
  });
}

/** Each attribute value that is not one (isAttributeValue), located at its key, or at the list item that is wrong. */
function attributeProblems(attributes: Record<string, unknown>, path: PathSegments, at: At): void {
  for (const key in attributes) {
    const value = attributes[key];
    if (isAttributeValue(value)) continue;
    if (!Array.isArray(value)) {
      at([...path, key], ATTRIBUTE_VALUE, value);
      continue;
    }
    value.forEach((item, index) => {
      if (!isAttributeItem(item)) at([...path, key, index], "expected a string, number, boolean or null (an item of an attribute's list)", item);
    });
  }
}

const ATTRIBUTE_VALUE = "expected a string, number, boolean, null or a list of those (a span attribute's value)";

/**
 * A span attribute's value as a record holds one (docs/spans.md): a string, number or boolean, or
 * a list of those. null (and undefined, which JSON leaves out) is taken too: JSON writes a number
 * that is not finite as null, which an attribute may be (the API takes NaN), and what
 * spansToJsonl writes readSpansJsonl must read back.
 */
function isAttributeValue(value: unknown): boolean {
  if (isAttributeItem(value)) return true;
  if (!Array.isArray(value)) return false;
  for (let index = 0; index < value.length; index++) if (!isAttributeItem(value[index])) return false;
  return true;
}

function isAttributeItem(value: unknown): boolean {
  const type = typeof value;
  return type === 'string' || type === 'number' || type === 'boolean' || value == null;
}

/** True when `attributes` holds only attribute values (isAttributeValue); no allocation. */
function hasAttributeValues(attributes: Record<string, unknown>): boolean {
  for (const key in attributes) if (!isAttributeValue(attributes[key])) return false;
  return true;
}

/**
 * wholeSpanRecordProblems(value).length === 0, written out with typeof tests and no allocation:
 * readSpansJsonl checks every line of a spans.jsonl, 350,000 of them is common.
 */
export function isWholeSpanRecord(value: unknown): boolean {
  if (!isSpanRecord(value)) return false;
  const record = value as Record<string, unknown>;
  if (!KINDS.includes(record.kind as string) || !STATUSES.includes(record.status as string)) return false;
  if (!Number.isFinite(record.start_ms) || !Number.isFinite(record.end_ms) || !Number.isFinite(record.duration_ms)) return false;
  if (typeof record.ended !== 'boolean') return false;
  if (record.status_message !== undefined && typeof record.status_message !== 'string') return false;
  if (!hasAttributeValues(record.attributes as Record<string, unknown>)) return false;
  return record.events === undefined || hasWholeEvents(record.events);
}

/** A plain object: not null, not a list. */
function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasWholeEvents(events: unknown): boolean {
  if (!Array.isArray(events)) return false;
  for (let index = 0; index < events.length; index++) {
    const event = events[index] as unknown;
    if (!isObject(event) || typeof event.name !== 'string' || !Number.isFinite(event.time_ms)) return false;
    const attributes = event.attributes;
    if (attributes !== undefined && !(isObject(attributes) && hasAttributeValues(attributes))) return false;
  }
  return true;
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
