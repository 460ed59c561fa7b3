import { describe, expect, it } from 'vitest';
import { memoryLocator } from '../../src/config/assert-format.js';
import { querySpans, validateQuery } from '../../src/spans/query.js';
import type { SpanRecord } from '../../src/spans/span-record.js';

function span(name: string, status: SpanRecord['status']): SpanRecord {
  return { trace_id: 't', span_id: name, parent_id: null, name, kind: 'internal', status, start_ms: 0, end_ms: 1, duration_ms: 1, attributes: {}, ended: true };
}

describe('filtering without an operator', () => {
  it('means and', () => {
    const spans = [span('execute_tool a', 'error'), span('execute_tool b', 'ok'), span('chat m', 'error')];
    const query = {
      filtering: {
        conditions: [
          { field: 'name', operator: 'startswith', value: 'execute_tool' },
          { field: 'status', operator: 'is', value: 'error' },
        ],
      },
    };
    expect(() => validateQuery(query, memoryLocator('q'))).not.toThrow();
    expect(querySpans(spans, query as never).spans.map((s) => s.name)).toEqual(['execute_tool a']);
  });

  it('still rejects a wrong operator', () => {
    expect(() => validateQuery({ filtering: { operator: 'xor', conditions: [{ field: 'name', operator: 'is', value: 'x' }] } }, memoryLocator('q'))).toThrow(
      /expected operator and \| or \| not, got/,
    );
  });
});

describe('a condition without an operator', () => {
  it('is refused at the condition, naming the key it lacks (only a group has a default)', () => {
    expect(() => validateQuery({ filtering: { conditions: [{ field: 'name', value: 'x' }] } }, memoryLocator('q'))).toThrow(
      /^q at filtering\.conditions\[0\]: missing required key "operator"; expected one of is, is_not, /,
    );
  });
});
