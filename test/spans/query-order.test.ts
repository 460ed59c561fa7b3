import { describe, expect, it } from 'vitest';
import { querySpans, type QueryCondition } from '../../src/spans/query.js';
import type { AttributeValue, SpanRecord } from '../../src/spans/span-record.js';

function span(name: string, attributes: Record<string, AttributeValue>): SpanRecord {
  return {
    trace_id: 't',
    span_id: name,
    parent_id: null,
    name,
    kind: 'internal',
    status: 'unset',
    start_ms: 0,
    end_ms: 1,
    duration_ms: 1,
    attributes,
    ended: true,
  };
}

// An attribute may hold a number or its numeric string (a tool's own attributes, an exporter's).
const spans = [span('five', { n: 5, s: '5', v: '1.10.0' }), span('twelve', { n: 12, s: '12', v: '1.9.2' }), span('text', { n: 'abc', s: 'abc' })];
const names = (key: string, operator: QueryCondition['operator'], value: string | number) =>
  querySpans(spans, { filtering: { field: 'attributes', key, operator, value } }).spans.map((found) => found.name);

describe('gt / gte / lt / lte', () => {
  it('compare a number attribute numerically with a numeric string value, as with a number value', () => {
    expect(names('n', 'gt', '3')).toEqual(['five', 'twelve']);
    expect(names('n', 'gt', 3)).toEqual(['five', 'twelve']);
    expect(names('n', 'lt', '6')).toEqual(['five']);
    expect(names('n', 'gte', '12')).toEqual(['twelve']);
    expect(names('n', 'lte', '5')).toEqual(['five']);
  });

  it('compare two numeric strings numerically ("12" is after "5"), not letter by letter', () => {
    expect(names('s', 'gt', '5')).toEqual(['twelve']);
    expect(names('s', 'gt', 5)).toEqual(['twelve']);
    expect(names('s', 'lt', '6')).toEqual(['five']);
  });

  it('compare other strings as strings, and never order a number against other text', () => {
    expect(names('v', 'gt', '1.10.0')).toEqual(['twelve']);
    expect(names('s', 'gte', 'abc')).toEqual(['text']);
    expect(names('n', 'lt', 'b')).toEqual(['text']);
    expect(names('n', 'gt', 'a')).toEqual(['text']);
    expect(names('missing', 'lt', '9')).toEqual([]);
  });
});
