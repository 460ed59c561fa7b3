// querySpans over 1,000,000 spans: a by-trace query and an attribute filter.
import { median } from './lib.mjs';

/** Builds `count` spans in 1,000 traces and times two queries (median of `runs`). */
export async function benchQuery({ count = 1_000_000, runs = 5 } = {}) {
  const { querySpans } = await import('../dist/src/spans/query.js');
  const spans = new Array(count);
  const names = ['chat m', 'execute_tool lookup_order', 'execute_tool create_refund', 'execute_tool send_email'];
  for (let i = 0; i < count; i++) {
    const trace = (i % 1000).toString(16).padStart(32, '0');
    const name = names[i % names.length];
    spans[i] = {
      trace_id: trace,
      span_id: i.toString(16).padStart(16, '0'),
      parent_id: null,
      name,
      kind: 'internal',
      status: i % 97 === 0 ? 'error' : 'unset',
      start_ms: i,
      end_ms: i + 1,
      duration_ms: 1,
      ended: true,
      attributes: { 'gen_ai.operation.name': name.split(' ')[0], 'gen_ai.tool.name': name.split(' ')[1] ?? '' },
    };
  }
  const queries = {
    'by trace_id': { filtering: { operator: 'and', conditions: [{ field: 'trace_id', operator: 'eq', value: (123).toString(16).padStart(32, '0') }] } },
    'attribute filter (tool name = create_refund, status error)': {
      filtering: {
        operator: 'and',
        conditions: [
          { field: 'attributes', key: 'gen_ai.tool.name', operator: 'eq', value: 'create_refund' },
          { field: 'status', operator: 'is', value: 'error' },
        ],
      },
    },
  };
  const results = [];
  for (const [name, query] of Object.entries(queries)) {
    const times = [];
    let matched = 0;
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      matched = querySpans(spans, query).count;
      times.push(performance.now() - started);
    }
    results.push({ name, spans: count, matched, median_ms: median(times) });
  }
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await benchQuery(), null, 2));
