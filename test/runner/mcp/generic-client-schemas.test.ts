import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, connectAgentcheck, text } from './mcp-client.js';

type Schema = { type?: unknown; properties?: Record<string, Schema>; items?: Schema; anyOf?: Schema[]; $ref?: string };

/** Paths of schema nodes a generic client cannot render: object-like nodes without a `type`. */
function untyped(schema: Schema, path: string): string[] {
  const out: string[] = [];
  // An object, or a choice between objects: a client must know to send JSON for it.
  const objectLike = schema.properties !== undefined || (schema.anyOf?.every((member) => member.type === 'object') ?? false);
  if (objectLike && schema.type === undefined) out.push(path);
  for (const [name, child] of Object.entries(schema.properties ?? {})) out.push(...untyped(child, `${path}.${name}`));
  if (schema.items) out.push(...untyped(schema.items, `${path}[]`));
  return out;
}

describe('MCP tool schemas for generic clients (the MCP Inspector CLI, the built CLI)', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connectAgentcheck();
  });
  afterAll(async () => {
    await client?.close();
  });

  it('gives every object schema a type, so forms and --tool-arg send JSON, not strings', async () => {
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThanOrEqual(3);
    for (const tool of tools) {
      const input = tool.inputSchema as Schema;
      expect(input.type, tool.name).toBe('object');
      expect(untyped(input, tool.name)).toEqual([]);
    }
    const filtering = (tools.find((tool) => tool.name === 'query_spans')!.inputSchema as Schema).properties!.filtering;
    expect(filtering.type).toBe('object');
    expect(Object.keys(filtering.properties ?? {})).toEqual(expect.arrayContaining(['field', 'key', 'operator', 'value', 'conditions']));
  });

  it('still refuses a filtering that is neither a condition nor a group, saying what is expected', async () => {
    const result = await call(client, 'query_spans', { filtering: { operator: 'eq', value: 'x' } });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/arguments at filtering.*expected/);
    const group = await call(client, 'query_spans', {
      filtering: { operator: 'and', conditions: [{ field: 'name', operator: 'startswith', value: 'execute_tool' }] },
    });
    expect(group.isError, text(group)).toBeFalsy();
  });
});
