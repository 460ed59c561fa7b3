import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, connectAgentcheck, REFUND_REQUEST as refund, text } from './mcp-client.js';

describe('agentcheck mcp query_spans: a group without operator means and (docs/query-spans.md)', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connectAgentcheck();
  });
  afterAll(async () => {
    await client?.close();
  });

  it('lists operator as optional and takes a group without it, as spans query --where and querySpans do', async () => {
    const { tools } = await client.listTools();
    const filtering = (tools.find((tool) => tool.name === 'query_spans')?.inputSchema.properties as Record<string, any>).filtering;
    expect(filtering.required ?? []).not.toContain('operator');

    const run = await call(client, 'test_run', refund);
    expect(run.isError, text(run)).toBeFalsy();
    const trace_id = (run.structuredContent as { trace_id: string }).trace_id;
    const conditions = [
      { field: 'name', operator: 'startswith', value: 'execute_tool' },
      { field: 'attributes', key: 'gen_ai.tool.name', operator: 'eq', value: 'create_refund' },
    ];
    const implicit = await call(client, 'query_spans', { trace_id, filtering: { conditions } });
    expect(implicit.isError, text(implicit)).toBeFalsy();
    expect(implicit.structuredContent).toMatchObject({ count: 1, spans: [{ name: 'execute_tool create_refund' }] });
    const explicit = await call(client, 'query_spans', { trace_id, filtering: { operator: 'and', conditions } });
    expect(explicit.structuredContent).toEqual(implicit.structuredContent);
  });

  it('still refuses a condition without operator, saying which it takes', async () => {
    const result = await call(client, 'query_spans', { filtering: { conditions: [{ field: 'name', value: 'x' }] } });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^invalid input: arguments at filtering\.conditions\[0\]: missing required key "operator"; expected one of is, is_not, /);
  });
});
