import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { argumentRefusal, unknownToolRefusal } from '../../../src/runner/mcp/argument-refusal.js';
import { testRunInput } from '../../../src/runner/mcp/test-run-schema.js';
import { AGENT_YAML } from '../../e2e/cli.js';
import { sharedDir } from '../../helpers/shared-fixture.js';
import { call, connectAgentcheck, text } from './mcp-client.js';

// Arguments a tool's input schema refuses are answered in the SDK's words, but with every key
// quoted and cut as any value an error quotes (docs/security.md, Hostile files; docs/mcp.md, Tools):
// zod's own text put a key raw and whole, so `\u001b[2J` reached the client's terminal.

const HOSTILE = '\u001b[2Jevil\u202e';
const QUOTED = '"\\u001b[2Jevil\\u202e"';
const LONG = 'a'.repeat(5000);
const LONG_QUOTED = `"${'a'.repeat(200)}"... (4800 more characters)`;
const PREFIX = 'MCP error -32602: Input validation error: Invalid arguments for tool test_run: ';

describe('argumentRefusal: the tool error for arguments a schema refuses', () => {
  const base = { agent: 'agent.yaml', inputs: { messages: [{ role: 'user', content: 'hi' }] } };
  const refusalText = (args: unknown) => {
    const refused = argumentRefusal('test_run', testRunInput, args);
    return refused?.content[0]?.type === 'text' ? refused.content[0].text : undefined;
  };

  it('an unknown argument: its key quoted and cut', () => {
    expect(refusalText(base)).toBeUndefined();
    expect(refusalText({ ...base, [HOSTILE]: 1 })).toBe(`${PREFIX}Unrecognized key(s) in object: ${QUOTED}`);
    expect(refusalText({ ...base, [LONG]: 1 })).toBe(`${PREFIX}Unrecognized key(s) in object: ${LONG_QUOTED}`);
    expect(refusalText({ ...base, expectations: { terminal_tool: 'x', [HOSTILE]: 1 } })).toBe(
      `${PREFIX}Unrecognized key(s) in object: ${QUOTED} at expectations`,
    );
  });

  it('a problem under a hostile key: the key quoted in the path, as a file path quotes it', () => {
    expect(refusalText({ ...base, mocks: { http: [{ url: 'https://x.test/', headers: { [HOSTILE]: 1 } }] } })).toBe(
      `${PREFIX}expected string, got number 1 at mocks.http[0].headers[${QUOTED}]`,
    );
  });

  it("bounds, types and missing keys in agentcheck's words, with the value given", () => {
    expect(refusalText({ ...base, mocks: { http: [{ url: 'https://x.test/', status: 99 }] } })).toBe(
      `${PREFIX}expected a number >= 100, got number 99 at mocks.http[0].status`,
    );
    expect(refusalText({ ...base, inputs: { messages: [] } })).toBe(`${PREFIX}expected at least 1 item, got 0 items at inputs.messages`);
    expect(refusalText({ agent: 'agent.yaml', inputs: { messages: [{ role: 'user' }] } })).toBe(
      `${PREFIX}missing: expected string at inputs.messages[0].content`,
    );
  });

  it('an unknown tool', () => {
    expect(unknownToolRefusal(HOSTILE)).toEqual({ content: [{ type: 'text', text: `MCP error -32602: Tool ${QUOTED} not found` }], isError: true });
    expect(unknownToolRefusal('nosuch').content).toEqual([{ type: 'text', text: 'MCP error -32602: Tool nosuch not found' }]);
  });
});

describe('agentcheck mcp over stdio: no raw ESC or U+202E in a refusal, long keys cut', () => {
  let client: Client;
  const dir = sharedDir({ 'agent.yaml': AGENT_YAML });
  const base = { agent: 'agent.yaml', inputs: { messages: [{ role: 'user', content: 'hi' }] }, script: [{ text: 'ok' }] };
  beforeAll(async () => {
    client = await connectAgentcheck(dir);
  });
  afterAll(async () => {
    await client?.close();
  });

  it('test_run: an unknown argument', async () => {
    const hostile = await call(client, 'test_run', { ...base, '\u001b[31mk\u202e': 1 });
    expect(hostile.isError).toBe(true);
    expect(text(hostile)).toBe(`${PREFIX}Unrecognized key(s) in object: "\\u001b[31mk\\u202e"`);
    const long = await call(client, 'test_run', { ...base, [LONG]: 1 });
    expect(text(long)).toBe(`${PREFIX}Unrecognized key(s) in object: ${LONG_QUOTED}`);
  });

  it('test_run: a problem under a hostile approvals key, said as test-run --approvals says it (the input schema lets approvals through)', async () => {
    const hostile = await call(client, 'test_run', { ...base, approvals: { tools: { [HOSTILE]: '' } } });
    expect(hostile.isError).toBe(true);
    expect(text(hostile)).toBe(`invalid input: arguments at approvals.tools[${QUOTED}]: expected a string of at least 1 character(s)`);
  });

  it('test_run: an empty approvals key, or one ending in a dot, quoted in brackets, never a path ending in a dot (black-box nit)', async () => {
    const odd = await call(client, 'test_run', { ...base, approvals: { tools: { '': 'approve', 'a.': '' } } });
    expect(odd.isError).toBe(true);
    const lines = text(odd).split('\n');
    expect(lines).toContainEqual(expect.stringMatching(/^(invalid input: )?arguments at approvals\.tools\[""\]: "" names no tool of the agent; /));
    expect(lines).toContainEqual(
      expect.stringMatching(/^(invalid input: )?arguments at approvals\.tools\["a\."\]: expected a string of at least 1 character\(s\)$/),
    );
  });

  it('an unknown tool, and a valid call after the refusals still runs', async () => {
    const unknown = await call(client, HOSTILE, {});
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toBe(`MCP error -32602: Tool ${QUOTED} not found`);
    const valid = await call(client, 'test_run', base);
    expect(valid.isError, text(valid)).toBeFalsy();
    expect((valid.structuredContent as { verdict: string }).verdict).toBe('unconfirmed');
  });
});
