import { describe, expect, it } from 'vitest';
import { isWholeSpanRecord, wholeSpanRecordProblems } from '../../src/spans/span-record-check.js';
import { spanRecord } from '../helpers/span-record.js';

const WHOLE = {
  // null: what JSON makes of a NaN attribute (SpanRecord's type leaves it out).
  ...spanRecord('t', 's', null, 'n', 0, 1, { s: 'x', n: 1, b: true, list: ['a', null], nan: null } as never),
  status_message: 'm',
  events: [
    { name: 'e', time_ms: 1 },
    { name: 'f', time_ms: 2, attributes: { k: [1, 2] } },
  ],
};

/** Records each short of a whole one in one way. */
const BROKEN: Array<[string, unknown]> = [
  ['not an object', 5],
  ['a list', [WHOLE]],
  ['kind', { ...WHOLE, kind: 'bogus' }],
  ['status', { ...WHOLE, status: 'OK' }],
  ['status_message', { ...WHOLE, status_message: 1 }],
  ['start_ms NaN', { ...WHOLE, start_ms: NaN }],
  ['end_ms text', { ...WHOLE, end_ms: '1' }],
  ['duration_ms missing', { ...WHOLE, duration_ms: undefined }],
  ['ended', { ...WHOLE, ended: 'yes' }],
  ['attribute object', { ...WHOLE, attributes: { o: { a: 1 } } }],
  ['attribute list of lists', { ...WHOLE, attributes: { l: [[1]] } }],
  ['attribute bigint', { ...WHOLE, attributes: { n: 1n } }],
  ['attributes missing', { ...WHOLE, attributes: undefined }],
  ['trace_id', { ...WHOLE, trace_id: 1 }],
  ['events not a list', { ...WHOLE, events: {} }],
  ['event time', { ...WHOLE, events: [{ name: 'e', time_ms: Infinity }] }],
  ['event name', { ...WHOLE, events: [{ time_ms: 1 }] }],
  ['event attributes', { ...WHOLE, events: [{ name: 'e', time_ms: 1, attributes: [] }] }],
  ['event attribute value', { ...WHOLE, events: [{ name: 'e', time_ms: 1, attributes: { o: {} } }] }],
];

describe('a whole span record', () => {
  it('is taken with every field docs/spans.md gives it', () => {
    expect(isWholeSpanRecord(WHOLE)).toBe(true);
    expect(wholeSpanRecordProblems(WHOLE)).toEqual([]);
  });

  // readSpansJsonl and spansToJsonl test with the fast check and say the problems of the other: the two must agree.
  it.each(BROKEN)('is refused alike by the fast check and the one that says why: %s', (_, value) => {
    expect(isWholeSpanRecord(value)).toBe(false);
    expect(wholeSpanRecordProblems(value).length).toBeGreaterThan(0);
  });
});
