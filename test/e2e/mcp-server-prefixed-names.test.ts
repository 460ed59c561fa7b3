import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NAMES_SERVER } from '../engine/mcp/mcp-helpers.js';
import { linesAbout, shared } from '../helpers/shared-fixture.js';
import { tempDir } from '../helpers/temp-dir.js';
import { tags } from '../runner/reporters/html-scan.js';
import { runCli } from './cli.js';

// A name written with `mcp__<server>__` names that server's tool only (docs/verdicts.md, The
// test_run verdict): two servers offering write_note are two tools, with or without tools lists.
const agentYaml = (listed: boolean) => `id: twoservers
agent:
  name: Two servers
  llm: {provider: scripted, model: s}
  permissions: {mode: allow_reads}
  tools: [{name: finish, description: Finish., parameters: {type: object}, returns: {done: true}}]
  mcps:
    - {name: a, command: ${JSON.stringify([process.execPath, NAMES_SERVER, 'write_note'])}${listed ? ', tools: [write_note]' : ''}}
    - {name: b, command: ${JSON.stringify([process.execPath, NAMES_SERVER, 'write_note'])}${listed ? ', tools: [write_note]' : ''}}
`;
const SCENARIOS = `defaults:
  agent: agent.yaml
  inputs: {messages: [{role: user, content: hi}]}
  approvals: {default: approve}
  model: {script: [{tool_calls: [{name: mcp__a__write_note, args: {id: "1"}}]}, {tool_calls: [{name: finish, args: {}}]}, {text: ok}]}
scenarios:
  - name: other server not called
    expect: {terminal_tool: finish, checks: [{tool_not_called: {tool: mcp__b__write_note}}]}
  - name: other server called
    expect: {terminal_tool: finish, checks: [{tool_called: {tool: mcp__b__write_note}}]}
  - name: called server
    expect: {terminal_tool: finish, checks: [{tool_called: {tool: mcp__a__write_note}}, {tool_called: {tool: write_note}}, {approval: {tool: mcp__a__write_note, decision: approve}}]}
  - name: other server approval
    expect: {terminal_tool: finish, checks: [{approval: {tool: mcp__b__write_note}}]}
  - name: other server terminal tool
    expect: {terminal_tool: mcp__b__write_note}
`;

interface Row {
  file: string;
  name: string;
  status: string;
  reason: string;
  error: { type: string; message: string } | null;
}

/** A scenario of the build `agent` with a check that `tool` was not called. */
const scenario = (tool: string, agent = 'agent.yaml') =>
  `name: s\nagent: ${agent}\ninputs: {messages: [{role: user, content: hi}]}\nmodel: {script: [{text: ok}]}\nexpect: {checks: [{tool_not_called: {tool: ${tool}}}]}\n`;

// The builds with and without tools lists, and the scenario naming a tool the listing server
// lacks, are files of one suite, run once: both builds' servers are the same launch, started once.
// Each test reads its own file's rows.
const suite = shared(async (dir) => {
  const cwd = dir({
    'listed.yaml': agentYaml(true).replace('id: twoservers', 'id: listed'),
    'unlisted.yaml': agentYaml(false).replace('id: twoservers', 'id: unlisted'),
    'listed.scenarios.yaml': SCENARIOS.replace('agent: agent.yaml', 'agent: listed.yaml'),
    'unlisted.scenarios.yaml': SCENARIOS.replace('agent: agent.yaml', 'agent: unlisted.yaml'),
    'delete.scenario.yaml': scenario('mcp__a__delete_note', 'unlisted.yaml'),
  });
  // validate cannot see the names of a server without a tools list (it is not started): it accepts them.
  const validate = await runCli(['validate', '.'], cwd);
  const result = await runCli(['run', '.', '--reporter', 'json', '--out', 'o'], cwd);
  const rows: Row[] = JSON.parse(readFileSync(join(cwd, 'o/report.json'), 'utf8')).scenarios;
  const rowsOf = (file: string) => new Map(rows.filter((row) => row.file === join(cwd, file)).map((row) => [row.name, row]));
  return { validate, result, rowsOf };
});

describe.each([
  ['with tools lists', 'listed'],
  ['without tools lists', 'unlisted'],
])('two MCP servers offering write_note, %s', (_label, build) => {
  it('a server-prefixed name is about that server’s tool only', async () => {
    const { result, rowsOf } = await suite();
    expect(result.exitCode, result.all).toBe(1);
    const rows = rowsOf(`${build}.scenarios.yaml`);
    expect(rows.get('other server not called')).toMatchObject({ status: 'pass', error: null });
    expect(rows.get('called server')).toMatchObject({ status: 'pass', error: null });
    expect(rows.get('other server called')?.status).toBe('fail');
    expect(rows.get('other server called')?.reason).toContain('expected mcp__b__write_note to be called at least once');
    expect(rows.get('other server approval')?.status).toBe('fail');
    expect(rows.get('other server approval')?.reason).toContain('expected an approval for mcp__b__write_note; saw write_note: approve');
    expect(rows.get('other server terminal tool')?.status).toBe('fail');
    expect(rows.get('other server terminal tool')?.reason).toContain('terminal tool mcp__b__write_note was never called');
  });
});

describe('tool-selection statistics with two servers offering write_note', () => {
  it("count a call of another server's tool as a wrong call, as the check does, in report.json and report.html", async () => {
    const dir = tempDir({
      'agent.yaml': agentYaml(false),
      't.scenarios.yaml': `${SCENARIOS.split('scenarios:')[0]}scenarios:
  - name: other server called
    expect: {terminal_tool: finish, checks: [{tool_called: {tool: mcp__b__write_note}}]}
  - name: any server
    expect: {terminal_tool: finish, checks: [{tool_called: {tool: write_note}}]}
`,
    });
    const result = await runCli(['run', '.', '--reporter', 'json,html', '--out', 'o'], dir);
    expect(result.exitCode, result.all).toBe(1);
    const report = JSON.parse(readFileSync(join(dir, 'o/report.json'), 'utf8'));
    const [other, any] = report.scenarios;
    expect(other.expected_tools).toEqual(['finish', 'mcp__b__write_note']);
    // The digest names the tool without its server, and says which server each call went to.
    expect(other.test_run.tools).toEqual([
      { name: 'write_note', called: 1, returned: 1, errors: 0, servers: { a: 1 } },
      { name: 'finish', called: 1, returned: 1, errors: 0 },
    ]);
    // other: called {mcp__a__write_note, finish}, expected {finish, mcp__b__write_note}: 1 hit of 2 each way.
    // any: called {write_note, finish}, expected {finish, write_note}: 2 of 2.
    expect(report.stats.variants.base.tool_selection).toEqual({
      runs: 2,
      precision: 0.75,
      recall: 0.75,
      macro_precision: 0.75,
      macro_recall: 0.75,
      wrong_tool_calls: { total: 1, per_run: 0.5 },
      confusion: { mcp__b__write_note: { missed: 1, called_instead: { mcp__a__write_note: 1 } } },
    });
    // The timeline draws server a's call as not expected where server b's is, and names its server.
    const html = readFileSync(join(dir, 'o/report.html'), 'utf8');
    const bars = (row: { test_run: { trace_id: string } }) => {
      const lane = tags(html).find((tag) => tag.attrs.class === 'lane' && tag.attrs['data-trace-id'] === row.test_run.trace_id)!;
      return tags(html.slice(lane.index, html.indexOf('</svg>', lane.index)))
        .filter((tag) => tag.name === 'rect' && tag.attrs['data-tool'])
        .map((tag) => `${tag.attrs['data-tool']}${tag.attrs['data-wrong'] ? ' wrong' : ''}`);
    };
    expect(bars(other)).toEqual(['mcp__a__write_note wrong', 'finish']);
    expect(bars(any)).toEqual(['write_note', 'finish']);
  });
});

describe('a server-prefixed name no server offers', () => {
  it('is refused at load: a server that is not configured, or a tool its tools list lacks', async () => {
    // Both builds in one validate: each file's message is told on its own lines.
    const dir = tempDir({
      'listed.yaml': agentYaml(true),
      'unlisted.yaml': agentYaml(false),
      'listed.scenario.yaml': scenario('mcp__c__write_note', 'listed.yaml'),
      'unlisted.scenario.yaml': scenario('mcp__c__write_note', 'unlisted.yaml'),
    });
    const validate = await runCli(['validate', 'listed.scenario.yaml', 'unlisted.scenario.yaml'], dir);
    expect(validate.exitCode, validate.all).toBe(2);
    for (const [file, list] of [
      ['listed.scenario.yaml', 'finish, mcp__a__write_note, mcp__b__write_note'],
      ['unlisted.scenario.yaml', 'finish, mcp__a__*, mcp__b__*'],
    ]) {
      expect(linesAbout(validate.all, `/${file}`), file).toContain(
        `expect.checks[0].tool_not_called.tool: a tool_not_called check names no tool of the agent: "mcp__c__write_note"; expected one of: ${list}`,
      );
    }
  });

  it('of a server without a tools list, ends the run once the server lists its tools', async () => {
    const { validate, result, rowsOf } = await suite();
    expect(validate.exitCode, validate.all).toBe(0);
    expect(result.exitCode, result.all).toBe(1);
    const [row] = rowsOf('delete.scenario.yaml').values();
    expect(row).toMatchObject({ status: 'error', error: { type: 'CONFIG_INVALID' } });
    expect(row.error?.message).toContain(
      'a tool_not_called check names no tool of the agent: "mcp__a__delete_note"; expected one of: finish, mcp__a__write_note, mcp__b__write_note',
    );
  });

  it('test-run refuses a server-prefixed terminal tool on a build without MCP servers', async () => {
    const agent = `id: plain\nagent:\n  name: Plain\n  llm: {provider: scripted, model: s}\n  tools: [{name: finish, description: Finish., parameters: {type: object}, returns: {done: true}}]\n`;
    const dir = tempDir({ 'agent.yaml': agent, 's.yaml': '- tool_calls: [{name: finish, args: {}}]\n- text: ok\n' });
    const result = await runCli(
      ['test-run', '--agent', 'agent.yaml', '--message', 'hi', '--script', 's.yaml', '--terminal-tool', 'mcp__ghost__finish', '--json'],
      dir,
    );
    expect(result.exitCode, result.all).not.toBe(0);
    expect(result.all).toContain('names no tool of the agent: "mcp__ghost__finish"; expected one of: finish; did you mean "finish"?');
  });
});
