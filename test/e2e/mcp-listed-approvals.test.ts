import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NAMES_SERVER } from '../engine/mcp/mcp-helpers.js';
import { tempDir } from '../helpers/temp-dir.js';
import { call, connectAgentcheck, text } from '../runner/mcp/mcp-client.js';
import { runCli } from './cli.js';

// An MCP server without a `tools` list: its tool names are known only once it runs, so approvals
// naming them are checked then, before the model's first call (docs/mcp.md, Calls).
const agentYaml = (tools: string[]) => `id: mcpbot
agent:
  name: MCP bot
  llm: {provider: scripted, model: s}
  permissions: {mode: allow_reads}
  tools: [{name: finish, description: Finish., parameters: {type: object}, returns: {done: true}}]
  mcps: [{name: notes, command: ${JSON.stringify([process.execPath, NAMES_SERVER, ...tools])}}]
`;
const AGENT = agentYaml(['write_note', 'list_notes']);
const SCRIPT = '- tool_calls: [{name: mcp__notes__write_note, args: {id: "1", text: T}}]\n- text: ok\n';
/** The problem of approvals naming mcp__notes__write_nte, as a pattern's text. */
const TYPO =
  'approvals at tools\\.mcp__notes__write_nte: "mcp__notes__write_nte" names no tool of the agent; expected one of: finish, mcp__notes__write_note, mcp__notes__list_notes; did you mean "mcp__notes__write_note"\\?';
/** The problem of approvals naming the tool part write_nte: the suggestion is the full name. */
const SHORT_TYPO = 'approvals at tools\\.write_nte: "write_nte" names no tool of the agent; expected one of: .*; did you mean "mcp__notes__write_note"\\?';
/**
 * The problem of an MCP test_run's expectations.terminal_tool write_nte. The names offered are
 * those the request may use: load_skill is not offered to an MCP test_run.
 */
const TERMINAL_TYPO =
  'arguments at expectations\\.terminal_tool: expectations\\.terminal_tool names no tool of the agent: "write_nte"; expected one of: finish, mcp__notes__write_note, mcp__notes__list_notes; did you mean "write_note"\\?';
/** The verdict_reason of a run refused for `problems`, one per line, and nothing else. */
const refusedFor = (...problems: string[]) => new RegExp(`^the invoke errored \\(CONFIG_INVALID: ${problems.join('\\n')}\\)$`);

describe('approvals for the tools of an MCP server without a tools list', () => {
  it('test-run refuses misspelt names once the server lists its tools, before any call: a full name and a tool part', async () => {
    // A misspelt full name and a misspelt tool part: both are told, one per line. That the tool
    // part alone answers a call is held below, for MCP test_run and a suite's rows.
    const dir = tempDir({ 'agent.yaml': AGENT, 's.yaml': SCRIPT, 'typos.yaml': 'default: approve\ntools: {mcp__notes__write_nte: deny, write_nte: deny}\n' });
    const typos = await runCli(['test-run', '--agent', 'agent.yaml', '--message', 'hi', '--script', 's.yaml', '--approvals', 'typos.yaml', '--json'], dir);
    expect(typos.exitCode).toBe(1);
    const refused = JSON.parse(typos.stdout);
    expect(refused).toMatchObject({ verdict: 'failed', stop_reason: 'error', tools: [], approvals: [], resolved: null });
    expect(refused.verdict_reason).toMatch(refusedFor(TYPO, SHORT_TYPO));
  });

  it('MCP test_run does the same, with a misspelt terminal tool too, and takes the tool part alone', async () => {
    const dir = tempDir({ 'agent.yaml': AGENT });
    const client = await connectAgentcheck(dir);
    try {
      const request = {
        agent: 'agent.yaml',
        inputs: { messages: [{ role: 'user', content: 'hi' }] },
        script: [{ tool_calls: [{ name: 'mcp__notes__write_note', args: { id: '1' } }] }, { text: 'ok' }],
      };
      const typo = await call(client, 'test_run', {
        ...request,
        approvals: { default: 'approve', tools: { mcp__notes__write_nte: 'deny' } },
        // A misspelt terminal tool, told after the approvals' problem (mcp-listed-names.test.ts holds test-run's and the library's).
        expectations: { terminal_tool: 'write_nte' },
      });
      expect(typo.isError, text(typo)).toBeFalsy();
      expect(typo.structuredContent).toMatchObject({ verdict: 'failed', stop_reason: 'error', tools: [], resolved: null });
      expect((typo.structuredContent as { verdict_reason: string }).verdict_reason).toMatch(refusedFor(TYPO, TERMINAL_TYPO));
      const short = await call(client, 'test_run', { ...request, approvals: { default: 'approve', tools: { write_note: 'deny' } } });
      expect(short.structuredContent).toMatchObject({ stop_reason: 'end_turn', approvals: [{ tool: 'write_note', decision: 'deny' }] });
      expect((short.structuredContent as { tools: unknown }).tools).toEqual([{ name: 'write_note', called: 1, returned: 0, errors: 0, servers: { notes: 1 } }]);
    } finally {
      await client.close();
    }
  });

  it("a suite's scenario is refused in each variant whose server lacks the name, and a variant's listed tool is answered in its own runs only", async () => {
    const scenario = (name: string, tools: string) => `  - name: ${name}
    agent: agent.yaml
    inputs: {messages: [{role: user, content: hi}]}
    model: {script: [{tool_calls: [{name: mcp__notes__write_note, args: {id: "1"}}]}, {text: ok}]}
    approvals: {default: approve, tools: ${tools}}
    expect: {checks: [{tool_called: {tool: write_note}}]}
`;
    // `erase` is a tool of the `more` variant's server only, which lists its tools in the build.
    const more = { command: [process.execPath, NAMES_SERVER, 'write_note', 'erase'], tools: ['write_note', 'erase'] };
    const dir = tempDir({
      'agent.yaml': AGENT,
      'notes.scenarios.yaml': `scenarios:\n${scenario('typo', '{mcp__notes__write_nte: deny}')}${scenario('short', '{write_note: deny}')}${scenario('variant-tool', '{erase: deny}')}`,
      'agentcheck.config.yaml': `scenarios: [notes.scenarios.yaml]\nreporters: [json]\nout: out\nvariants:\n  slim: {set: {agent: {max_turns: 3}}}\n  more: {set: {"agent.mcps[name=notes]": ${JSON.stringify(more)}}}\n`,
    });
    const result = await runCli(['run'], dir);
    expect(result.exitCode, result.all).toBe(1);
    const report = JSON.parse(readFileSync(join(dir, 'out/report.json'), 'utf8')) as { scenarios: Array<Record<string, unknown>> };
    const rows = Object.fromEntries(report.scenarios.map((row) => [`${(row.name as string) ?? row.id} ${row.variant}`, row]));
    for (const variant of ['base', 'slim']) {
      expect(rows[`typo ${variant}`]).toMatchObject({ status: 'error', error: { type: 'CONFIG_INVALID' } });
      // Located as at load: the scenario file, its line and the scenario's path.
      expect(rows[`typo ${variant}`].reason).toMatch(
        /notes\.scenarios\.yaml:6:\d+ at scenarios\[0\]\.approvals\.tools\.mcp__notes__write_nte: .*; did you mean "mcp__notes__write_note"\?$/,
      );
      // `erase` is dropped where the server does not offer it, as for a tool a variant removes.
      expect(rows[`variant-tool ${variant}`]).toMatchObject({ status: 'pass' });
      expect((rows[`variant-tool ${variant}`].test_run as { approvals: unknown }).approvals).toEqual([{ tool: 'write_note', decision: 'approve' }]);
    }
    // The `more` variant's server lists its tools in the build, but the approvals also answer the
    // other builds, whose server lists its tools only when it runs: a name no build has is refused
    // in this run too (the base's server, started another way, counts as offering none here).
    expect(rows['typo more']).toMatchObject({ status: 'error', error: { type: 'CONFIG_INVALID' } });
    expect(rows['typo more'].reason).toMatch(/at scenarios\[0\]\.approvals\.tools\.mcp__notes__write_nte: .*; did you mean "mcp__notes__write_note"\?$/);
    // The tool part alone answers the call, in every variant (test-run's --approvals and MCP
    // test_run's are held to the same rule above).
    for (const variant of ['base', 'slim', 'more']) {
      const short = rows[`short ${variant}`].test_run as { stop_reason: string; approvals: unknown; tools: unknown };
      expect(short.stop_reason, variant).toBe('end_turn');
      expect(short.approvals, variant).toEqual([{ tool: 'write_note', decision: 'deny' }]);
      expect(short.tools, variant).toEqual([{ name: 'write_note', called: 1, returned: 0, errors: 0, servers: { notes: 1 } }]);
    }
  });
});
