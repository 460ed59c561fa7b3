import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedDir } from '../helpers/shared-fixture.js';
import { runMain } from '../helpers/run-main.js';
import { tempDir } from '../helpers/temp-dir.js';
import { call, connectAgentcheck, text } from '../runner/mcp/mcp-client.js';
import { AGENT_YAML, runCli } from './cli.js';

// What a hostile file, flag or MCP request names is quoted in the error (docs/security.md, Hostile
// files): no raw ESC or bidi override reaches the terminal or the client, and a long name is cut at
// 200 characters with the count, in the CLI, the MCP server and (test/security/quoted-names) testRun.

const HOSTILE = '\u001b[2Jevil\u202e';
const QUOTED = '"\\u001b[2Jevil\\u202e"';
const LONG = 'a'.repeat(5000);
const LONG_QUOTED = `"${'a'.repeat(200)}"... (4800 more characters)`;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const RAW = /[\u001b\u202e]/;
const TOOLS = 'expected one of: lookup, finish';

const scenario = (expect: string) => `name: s\nagent: agent.yaml\ninputs: {messages: [{role: user, content: go}]}\nmodel: {script: [{text: ok}]}\n${expect}\n`;

describe('agentcheck validate and test-run quote the names they refuse', () => {
  it('validate: a terminal_tool and an approvals.tools key holding ESC and U+202E, and a 5,000-character one', async () => {
    const dir = tempDir({
      'agent.yaml': AGENT_YAML,
      'esc.scenario.yaml': scenario('expect: {terminal_tool: "\\e[2Jevil\\u202e"}\napprovals: {tools: {"\\e[2Jevil\\u202e": approve}}'),
      'long.scenario.yaml': scenario(`expect: {terminal_tool: ${LONG}}\napprovals: {tools: {finish: ${LONG}}}`),
    });
    // Refused at load: the CLI's entry in-process (runMain), as the built CLI refuses the hostile --terminal-tool below.
    const result = await runMain(['validate', 'esc.scenario.yaml', 'long.scenario.yaml'], dir);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).not.toMatch(RAW);
    expect(result.stderr).toContain(`esc.scenario.yaml:5:25 at expect.terminal_tool: expect.terminal_tool names no tool of the agent: ${QUOTED}; ${TOOLS}`);
    expect(result.stderr).toContain(`esc.scenario.yaml:6:21 at approvals.tools[${QUOTED}]: ${QUOTED} names no tool of the agent; ${TOOLS}`);
    expect(result.stderr).toContain(
      `long.scenario.yaml:5:25 at expect.terminal_tool: expect.terminal_tool names no tool of the agent: ${LONG_QUOTED}; ${TOOLS}`,
    );
    expect(result.stderr).toContain(`at approvals.tools.finish: a tool's approval gate takes "approve", "deny", "reject"; got ${LONG_QUOTED}`);
    for (const line of result.stderr.trim().split('\n')) expect(line.length).toBeLessThan(500);
  });

  it('test-run --terminal-tool: escaped, and cut at 200 characters with the count', async () => {
    const dir = tempDir({ 'agent.yaml': AGENT_YAML, 'script.yaml': '- text: ok\n' });
    const args = ['test-run', '--agent', 'agent.yaml', '--message', 'hi', '--script', 'script.yaml', '--terminal-tool'];
    const hostile = await runCli([...args, HOSTILE], dir);
    expect(hostile.exitCode).toBe(2);
    expect(hostile.stderr).not.toMatch(RAW);
    expect(hostile.stderr).toBe(`agentcheck: invalid input: --terminal-tool: it names no tool of the agent: ${QUOTED}; ${TOOLS}`);
    const long = await runMain([...args, LONG], dir);
    expect(long.exitCode).toBe(2);
    expect(long.stderr).toBe(`agentcheck: invalid input: --terminal-tool: it names no tool of the agent: ${LONG_QUOTED}; ${TOOLS}`);
  });
});

describe('agentcheck mcp quotes the names its tool errors refuse', () => {
  let client: Client;
  const dir = sharedDir({ 'agent.yaml': AGENT_YAML });
  const base = () => ({ agent: 'agent.yaml', inputs: { messages: [{ role: 'user', content: 'hi' }] }, script: [{ text: 'ok' }] });
  beforeAll(async () => {
    client = await connectAgentcheck(dir);
  });
  afterAll(async () => {
    await client?.close();
  });

  it('test_run: expectations.terminal_tool and an approvals.tools key', async () => {
    const terminal = await call(client, 'test_run', { ...base(), expectations: { terminal_tool: HOSTILE } });
    expect(terminal.isError).toBe(true);
    expect(text(terminal)).toBe(
      `invalid input: arguments at expectations.terminal_tool: expectations.terminal_tool names no tool of the agent: ${QUOTED}; ${TOOLS}`,
    );
    const long = await call(client, 'test_run', { ...base(), expectations: { terminal_tool: LONG } });
    expect(text(long)).toBe(
      `invalid input: arguments at expectations.terminal_tool: expectations.terminal_tool names no tool of the agent: ${LONG_QUOTED}; ${TOOLS}`,
    );
    const approvals = await call(client, 'test_run', { ...base(), approvals: { tools: { [HOSTILE]: 'approve' } } });
    expect(text(approvals)).toBe(`invalid input: arguments at approvals.tools[${QUOTED}]: ${QUOTED} names no tool of the agent; ${TOOLS}`);
  });

  it('test_run: a 5,000-character workspace is cut at 200 characters', async () => {
    const result = await call(client, 'test_run', { ...base(), workspace: LONG });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^invalid input: arguments at workspace: workspace folder not found: "\/.*a"\.\.\. \(\d+ more characters\)$/);
    expect(text(result).length).toBeLessThan(400);
  });
});
