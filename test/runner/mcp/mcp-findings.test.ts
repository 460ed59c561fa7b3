import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectAgentcheck } from './mcp-client.js';

describe('agentcheck mcp: schemas and arguments held as the CLI holds them', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connectAgentcheck();
  });
  afterAll(async () => {
    await client?.close();
  });

  it("describes validate's problems as every problem, as it returns them", async () => {
    const { tools } = await client.listTools();
    const validate = tools.find((tool) => tool.name === 'validate');
    const problems = (validate?.outputSchema?.properties as Record<string, { description?: string }>).problems;
    expect(problems.description).toMatch(/every problem of every invalid file/);
    expect(problems.description).not.toContain('first problem');
  });
});
