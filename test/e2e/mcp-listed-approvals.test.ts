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
const TYPO =
  /^the invoke errored \(CONFIG_INVALID: approvals at tools\.mcp__notes__write_nte: "mcp__notes__write_nte" names no tool of the agent; expected one of: finish, mcp__notes__write_note, mcp__notes__list_notes; did you mean "mcp__notes__write_note"\?\)$/;
const SHORT_TYPO =
  /^the invoke errored \(CONFIG_INVALID: approvals at tools\.write_nte: "write_nte" names no tool of the agent; expected one of: .*; did you mean "mcp__notes__write_note"\?\)$/;

describe('approvals for the tools of an MCP server without a tools list', () => {
  it('test-run refuses a misspelt name once the server lists its tools, before any call, and takes the tool part alone', async () => {
    const dir = tempDir({
      'agent.yaml': AGENT,
      's.yaml': SCRIPT,
      'typo.yaml': 'default: approve\ntools: {mcp__notes__write_nte: deny}\n',
      'short.yaml': 'default: approve\ntools: {write_note: deny}\n',
      'short-typo.yaml': 'default: approve\ntools: {write_nte: deny}\n',
    });
    const run = (approvals: string) =>
      runCli(['test-run', '--agent', 'agent.yaml', '--message', 'hi', '--script', 's.yaml', '--approvals', approvals, '--json'], dir);

    const typo = await run('typo.yaml');
    expect(typo.exitCode).toBe(1);
    const refused = JSON.parse(typo.stdout);
    expect(refused).toMatchObject({ verdict: 'failed', stop_reason: 'error', tools: [], approvals: [], resolved: null });
    expect(refused.verdict_reason).toMatch(TYPO);

    const short = JSON.parse((await run('short.yaml')).stdout);
    expect(short).toMatchObject({ stop_reason: 'end_turn', approvals: [{ tool: 'write_note', decision: 'deny' }] });
    expect(short.tools).toEqual([{ name: 'write_note', called: 1, returned: 0, errors: 0, servers: { notes: 1 } }]);

    const shortTypo = JSON.parse((await run('short-typo.yaml')).stdout);
    expect(shortTypo).toMatchObject({ verdict: 'failed', stop_reason: 'error', tools: [] });
    expect(shortTypo.verdict_reason).toMatch(SHORT_TYPO);
  });

  it('MCP test_run does the same', async () => {
    const dir = tempDir({ 'agent.yaml': AGENT });
    const client = await connectAgentcheck(dir);
    try {
      const request = {
        agent: 'agent.yaml',
        inputs: { messages: [{ role: 'user', content: 'hi' }] },
        script: [{ tool_calls: [{ name: 'mcp__notes__write_note', args: { id: '1' } }] }, { text: 'ok' }],
      };
      const typo = await call(client, 'test_run', { ...request, approvals: { default: 'approve', tools: { mcp__notes__write_nte: 'deny' } } });
      expect(typo.isError, text(typo)).toBeFalsy();
      expect(typo.structuredContent).toMatchObject({ verdict: 'failed', stop_reason: 'error', tools: [], resolved: null });
      expect((typo.structuredContent as { verdict_reason: string }).verdict_reason).toMatch(TYPO);
      const short = await call(client, 'test_run', { ...request, approvals: { default: 'approve', tools: { write_note: 'deny' } } });
      expect(short.structuredContent).toMatchObject({ stop_reason: 'end_turn', approvals: [{ tool: 'write_note', decision: 'deny' }] });
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
    for (const variant of ['base', 'slim', 'more']) {
      expect((rows[`short ${variant}`].test_run as { approvals: unknown }).approvals).toEqual([{ tool: 'write_note', decision: 'deny' }]);
    }
  });
});
