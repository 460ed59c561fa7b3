import { describe, expect, it } from 'vitest';
import { memoryLocator } from '../../src/config/assert-format.js';
import { ConfigError } from '../../src/config/errors.js';
import { join } from 'node:path';
import { invoke } from '../../src/engine/invoke.js';
import { loadAgentBuild } from '../../src/engine/revision/load-build.js';
import { compileQuery, querySpans, validateQuery, type SpanQuery } from '../../src/spans/query.js';
import { installTracing } from '../../src/spans/tracing.js';
import type { SpanRecord } from '../../src/spans/span-record.js';
import { RunBuilder } from '../verdicts/span-builder.js';
import { configErrorOf } from '../helpers/config-error.js';

function sampleSpans(): SpanRecord[] {
  const run = new RunBuilder('bot', 'trace-a');
  run.modelCalls([{ name: 'lookup_order', args: { order_id: '1234' }, read_only: true }]);
  run.modelCalls([{ name: 'create_refund', args: { order_id: '1234' }, outcome: 'error', result: 'boom', error_type: 'http_500' }]);
  run.text();
  return run.spans();
}

const ids = (spans: SpanRecord[]) => spans.map((span) => span.name);
const where = (filtering: SpanQuery['filtering'], spans = sampleSpans()) => querySpans(spans, { filtering });

describe('querySpans fields and operators', () => {
  it('is / is_not on name and trace_id', () => {
    expect(where({ field: 'name', operator: 'is', value: 'execute_tool lookup_order' }).count).toBe(1);
    expect(where({ field: 'trace_id', operator: 'is', value: 'trace-a' }).count).toBe(6);
    expect(where({ field: 'trace_id', operator: 'is_not', value: 'trace-a' }).count).toBe(0);
  });

  it('eq / neq compare a number with its numeric string', () => {
    expect(where({ field: 'attributes', key: 'agentcheck.turn', operator: 'eq', value: '1' }).count).toBe(2);
    expect(where({ field: 'attributes', key: 'agentcheck.turn', operator: 'eq', value: 1 }).count).toBe(2);
    expect(where({ field: 'attributes', key: 'agentcheck.turn', operator: 'neq', value: 1 }).count).toBe(4);
  });

  it('gt / gte / lt / lte on numbers and duration_ms', () => {
    expect(where({ field: 'attributes', key: 'agentcheck.turn', operator: 'gt', value: 0 }).count).toBe(3);
    expect(where({ field: 'attributes', key: 'agentcheck.turn', operator: 'gte', value: 1 }).count).toBe(3);
    expect(where({ field: 'attributes', key: 'agentcheck.turn', operator: 'lt', value: 1 }).count).toBe(2);
    expect(where({ field: 'attributes', key: 'agentcheck.turn', operator: 'lte', value: 2 }).count).toBe(5);
    expect(where({ field: 'duration_ms', operator: 'gt', value: 1 }).count).toBe(1);
  });

  it('contains on strings and on array attributes; startswith, endswith', () => {
    expect(where({ field: 'name', operator: 'contains', value: 'refund' }).count).toBe(1);
    expect(where({ field: 'attributes', key: 'gen_ai.response.finish_reasons', operator: 'contains', value: 'tool_calls' }).count).toBe(2);
    expect(where({ field: 'name', operator: 'startswith', value: 'chat' }).count).toBe(3);
    expect(where({ field: 'name', operator: 'endswith', value: '_order' }).count).toBe(1);
  });

  it('matches with a regex', () => {
    expect(ids(where({ field: 'attributes', key: 'gen_ai.tool.name', operator: 'matches', value: '^create_' }).spans)).toEqual(['execute_tool create_refund']);
  });

  it('in / not_in, status and kind', () => {
    expect(where({ field: 'attributes', key: 'gen_ai.tool.name', operator: 'in', value: ['lookup_order', 'x'] }).count).toBe(1);
    expect(where({ field: 'name', operator: 'not_in', value: ['chat scripted'] }).count).toBe(3);
    expect(where({ field: 'status', operator: 'is', value: 'error' }).count).toBe(1);
    expect(where({ field: 'kind', operator: 'is', value: 'internal' }).count).toBe(6);
  });

  it('exists / not_exists, also on parent_id (the root has none)', () => {
    expect(where({ field: 'attributes', key: 'error.type', operator: 'exists' }).count).toBe(1);
    expect(where({ field: 'attributes', key: 'error.type', operator: 'not_exists' }).count).toBe(5);
    expect(ids(where({ field: 'parent_id', operator: 'not_exists' }).spans)).toEqual(['invoke_agent bot']);
    expect(where({ field: 'span_id', operator: 'exists' }).count).toBe(6);
    // Only a span's own attributes: Object.prototype's members are on no span.
    for (const key of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expect(where({ field: 'attributes', key, operator: 'exists' }).count, key).toBe(0);
      expect(where({ field: 'attributes', key, operator: 'not_exists' }).count, key).toBe(6);
    }
  });

  it('nests and / or / not', () => {
    const tools = { field: 'attributes', key: 'gen_ai.operation.name', operator: 'is', value: 'execute_tool' } as const;
    const failed = { field: 'status', operator: 'is', value: 'error' } as const;
    expect(where({ operator: 'and', conditions: [tools, failed] }).count).toBe(1);
    expect(where({ operator: 'or', conditions: [tools, { field: 'parent_id', operator: 'not_exists' }] }).count).toBe(3);
    expect(where({ operator: 'and', conditions: [tools, { operator: 'not', conditions: [failed] }] }).count).toBe(1);
    expect(where({ operator: 'not', conditions: [tools, failed] }).count).toBe(4);
  });
});

describe('querySpans windowing', () => {
  it('orders by start time, limits, and counts before the limit', () => {
    const spans = sampleSpans().reverse();
    const asc = querySpans(spans, { windowing: { limit: 2 } });
    expect(asc.count).toBe(6);
    expect(ids(asc.spans)).toEqual(['invoke_agent bot', 'chat scripted']);
    const desc = querySpans(spans, { filtering: { field: 'name', operator: 'startswith', value: 'chat' }, windowing: { order: 'desc', limit: 1 } });
    expect(desc.count).toBe(3);
    expect(desc.spans).toHaveLength(1);
    expect(desc.spans[0].attributes['agentcheck.turn']).toBe(2);
  });

  it('with no query returns everything', () => {
    expect(querySpans(sampleSpans()).count).toBe(6);
  });
});

describe('validateQuery', () => {
  const locate = memoryLocator('scenario.yaml', ['query']);
  const problem = (query: unknown) => {
    try {
      validateQuery(query, locate);
      return null;
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as ConfigError).message;
    }
  };

  it('accepts a valid nested query', () => {
    expect(
      problem({ filtering: { operator: 'and', conditions: [{ field: 'name', operator: 'is', value: 'x' }] }, windowing: { limit: 5, order: 'desc' } }),
    ).toBeNull();
  });

  it('names unknown fields, operators and keys with their path', () => {
    expect(problem({ filtering: { field: 'nme', operator: 'is', value: 'x' } })).toBe(
      'scenario.yaml at query.filtering.field: unknown field "nme"; expected one of trace_id, span_id, parent_id, name, kind, status, attributes, duration_ms; did you mean "name"?',
    );
    expect(problem({ filtering: { operator: 'and', conditions: [{ field: 'name', operator: 'like', value: 'x' }] } })).toContain(
      'at query.filtering.conditions[0].operator: unknown operator "like"',
    );
    expect(problem({ filtering: { field: 'name', operator: 'starts_with', value: 'x' } })).toMatch(
      /unknown operator "starts_with"; expected one of .*; did you mean "startswith"\?$/,
    );
    expect(problem({ filtering: { operator: 'xor', conditions: [] } })).toContain('expected operator and | or | not, got "xor"');
    expect(problem({ where: {} })).toContain('at query.where: unknown key "where"');
    expect(problem({ windowing: { order: 'up' } })).toContain('expected order asc | desc');
    expect(problem({ windowing: { limit: -1 } })).toContain('expected a whole number >= 0');
  });

  it('suggests the operator, field or order a typo meant', () => {
    expect(problem({ filtering: { operator: 'andd', conditions: [{ field: 'name', operator: 'is', value: 'x' }] } })).toContain(
      'got "andd"; did you mean "and"?',
    );
    expect(problem({ filtering: { field: 'nmae', operator: 'is', value: 'x' } })).toContain('unknown field "nmae"; expected one of');
    expect(problem({ filtering: { field: 'nmae', operator: 'is', value: 'x' } })).toContain('did you mean "name"?');
    expect(problem({ windowing: { order: 'ascc' } })).toContain('got "ascc"; did you mean "asc"?');
  });

  it('needs a key for attributes, a list for in, no value for exists', () => {
    expect(problem({ filtering: { field: 'attributes', operator: 'exists' } })).toContain('field "attributes" needs a "key"');
    expect(problem({ filtering: { field: 'name', key: 'x', operator: 'exists' } })).toContain('"key" is only used with field "attributes"');
    expect(problem({ filtering: { field: 'name', operator: 'in', value: 'x' } })).toContain('operator "in" needs a list');
    expect(problem({ filtering: { field: 'name', operator: 'exists', value: 1 } })).toContain('operator "exists" takes no value');
    expect(problem({ filtering: { field: 'name', operator: 'is' } })).toContain('operator "is" needs a "value"');
    expect(problem({ filtering: { field: 'duration_ms', operator: 'gt', value: '5' } })).toContain('compares with a number');
  });

  it('refuses a value of another type than the field holds, which could never match', () => {
    expect(problem({ filtering: { field: 'name', operator: 'is', value: 1 } })).toBe('scenario.yaml at query.filtering.value: field "name" is a string, got 1');
    expect(problem({ filtering: { field: 'name', operator: 'in', value: ['chat', 2] } })).toContain(
      'at query.filtering.value[1]: field "name" is a string, got 2',
    );
    expect(problem({ filtering: { field: 'parent_id', operator: 'is', value: 5 } })).toContain('field "parent_id" is a string or null, got 5');
    expect(problem({ filtering: { field: 'duration_ms', operator: 'is', value: 'x' } })).toContain('field "duration_ms" is a number, got "x"');
    expect(problem({ filtering: { field: 'duration_ms', operator: 'contains', value: '1' } })).toContain(
      'at query.filtering.operator: field "duration_ms" is a number; operator "contains" compares text',
    );
    // Still accepted: null for a root's parent, and eq's numeric text.
    expect(problem({ filtering: { field: 'parent_id', operator: 'is', value: null } })).toBeNull();
    expect(problem({ filtering: { field: 'duration_ms', operator: 'eq', value: '5' } })).toBeNull();
    expect(problem({ filtering: { field: 'name', operator: 'eq', value: 1 } })).toBeNull();
  });

  it('refuses invalid and catastrophic regexes', () => {
    expect(problem({ filtering: { field: 'name', operator: 'matches', value: '(' } })).toContain('invalid regular expression');
    expect(problem({ filtering: { field: 'name', operator: 'matches', value: '(a+)+$' } })).toContain('nested quantifier');
    expect(problem({ filtering: { field: 'name', operator: 'matches', value: '(a|a)*$' } })).toContain('alternation');
  });

  it('querySpans itself rejects an invalid query', () => {
    expect(() => querySpans([], { filtering: { field: 'bogus' } } as never)).toThrow(ConfigError);
  });

  it('refuses a locate that is not a function, rather than a TypeError at the first problem', () => {
    expect(() => validateQuery({ filtering: { field: 'nme', operator: 'is', value: 'x' } }, 5 as never)).toThrow(
      'validateQuery at locate: expected a function (path, expected) returning a ConfigError, got number 5',
    );
  });

  it('compileQuery places problems under its source, and refuses a source that is not a name, rather than `5 at filtering.field`', () => {
    const typo = { filtering: { field: 'nme', operator: 'is', value: 'x' } } as never;
    expect(() => compileQuery(typo, 'checks.yaml')).toThrow(/^checks\.yaml at filtering\.field: unknown field "nme"/);
    expect(configErrorOf(() => compileQuery(typo, 5 as never)).message).toBe(
      'compileQuery at source: expected a name to place its problems under, such as "query" (a string), got number 5',
    );
    expect(configErrorOf(() => compileQuery(typo, {} as never)).message).toBe(
      'compileQuery at source: expected a name to place its problems under, such as "query" (a string), got an object',
    );
    expect(configErrorOf(() => compileQuery(typo, '')).message).toBe(
      'compileQuery at source: expected a name to place its problems under, such as "query", got an empty string',
    );
    expect(compileQuery({}).limit).toBe(Infinity);
  });

  it('places problems under "query" when no locator is given', () => {
    expect(() => validateQuery({ filtering: { field: 'name', operator: 'lt', value: 'd' } })).toThrow(
      'query at filtering.operator: operator "lt" applies only to duration_ms and attributes',
    );
  });
});

describe('querySpans input from a library caller', () => {
  it("reads the store installTracing() returns (its ended spans) and an object's spans (a test_run result, a row), as DESIGN writes querySpans(store, query)", async () => {
    // The tracer is passed on: in a worker shared with other files, the global one may be another store's.
    const { tracer, store } = installTracing();
    const revision = loadAgentBuild(join(import.meta.dirname, '../../fixtures/agents/support-bot.yaml'));
    const turn = await invoke(
      revision,
      { messages: [{ role: 'user', content: 'x' }] },
      { tracer, script: [{ tool_calls: [{ name: 'lookup_order', args: { order_id: '1' } }] }, { text: 'x' }] },
    );
    const query = { filtering: { field: 'trace_id', operator: 'is', value: turn.trace_id } } as const;
    const fromStore = querySpans(store, query);
    expect(fromStore.count).toBeGreaterThan(1);
    expect(fromStore.spans.map((span) => span.start_ms)).toEqual([...fromStore.spans.map((span) => span.start_ms)].sort((a, b) => a - b));
    const records = store.take(turn.trace_id);
    expect(querySpans({ spans: records }, query).count).toBe(fromStore.count);
    expect(querySpans(records, query).count).toBe(fromStore.count);
    expect(configErrorOf(() => querySpans({ spans: 'x' } as never)).message).toBe(
      'spans.spans: expected an array of span records (readSpansJsonl), got string "x"',
    );
  });

  it('names a query that is not an object, as it names a list', () => {
    for (const [query, shown] of [
      [null, 'null'],
      ['x', '"x"'],
      [5, '5'],
      [[], '[]'],
    ] as const) {
      expect(configErrorOf(() => querySpans([], query as never)).message).toBe(`query: expected a query {filtering, windowing}, got ${shown}`);
    }
  });

  it('names a span list that is not a list, and the first record that is not a span record', () => {
    expect(configErrorOf(() => querySpans(null as never, {})).message).toBe('spans: expected an array of span records (readSpansJsonl), got null');
    // readSpansJsonl's promise, not awaited.
    expect(configErrorOf(() => querySpans(Promise.resolve([]) as never, {})).message).toBe(
      'spans: expected an array of span records (readSpansJsonl), got a Promise (await readSpansJsonl(file) first)',
    );
    const [root, ...rest] = sampleSpans();
    const attribute = { filtering: { field: 'attributes', key: 'agentcheck.turn', operator: 'gt', value: 0 } } as const;
    expect(configErrorOf(() => querySpans([root, 1] as never, attribute)).message).toBe(
      'spans at [1]: expected a span record {trace_id, span_id, name, attributes, ...}, got number 1',
    );
    expect(configErrorOf(() => querySpans([root, null] as never, {})).message).toContain('spans at [1]: expected a span record');
    const { attributes: _dropped, ...bare } = rest[0];
    expect(configErrorOf(() => querySpans([root, bare] as never, attribute)).message).toBe(
      "spans at [1].attributes: expected an object (a span record's attributes), got nothing",
    );
    // The query is checked before the spans: its problem is the one to fix first.
    expect(configErrorOf(() => querySpans(null as never, null as never)).message).toContain('query: expected a query');
  });
});

// Speed is measured by bench/query.mjs over 1,000,000 spans (BENCHMARKS.md); this checks the
// results at a size a loaded machine runs in well under a second, and asserts no time.
describe('querySpans over many spans', () => {
  it('filters 100,000 spans by trace id or one attribute, newest first with a limit', () => {
    const shared = Array.from({ length: 10 }, (_, i) => ({ 'gen_ai.tool.name': `tool_${i}`, 'agentcheck.turn': i }));
    const spans: SpanRecord[] = new Array(100_000);
    for (let i = 0; i < spans.length; i++) {
      spans[i] = {
        trace_id: `t${i % 1000}`,
        span_id: String(i),
        parent_id: null,
        name: 'execute_tool x',
        kind: 'internal',
        status: 'unset',
        start_ms: i,
        end_ms: i + 1,
        duration_ms: 1,
        attributes: shared[i % 10],
        ended: true,
      };
    }
    const byTrace = querySpans(spans, { filtering: { field: 'trace_id', operator: 'is', value: 't7' } });
    const byAttribute = querySpans(spans, {
      filtering: { field: 'attributes', key: 'gen_ai.tool.name', operator: 'eq', value: 'tool_3' },
      windowing: { limit: 5, order: 'desc' },
    });
    expect(byTrace.count).toBe(100);
    expect(byAttribute.count).toBe(10_000);
    expect(byAttribute.spans.map((span) => span.span_id)).toEqual(['99993', '99983', '99973', '99963', '99953']);
  });
});
