import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NAMES_SERVER } from '../engine/mcp/mcp-helpers.js';
import type { MainResult } from '../helpers/run-main.js';
import { runMainFull } from '../helpers/run-main-full.js';
import { shared } from '../helpers/shared-fixture.js';
import { tempDir } from '../helpers/temp-dir.js';
import { ROOT, runCli } from './cli.js';

// An MCP server without a `tools` list offers names known only once it runs: a scenario's names
// of it are accepted at load and held to what it lists before the model's first call
// (docs/formats.md, "Names a scenario uses"), so a misspelt tool_not_called cannot pass.
const AGENT = `id: mcpbot
agent:
  name: MCP bot
  llm: {provider: scripted, model: s}
  permissions: {mode: allow}
  tools: [{name: finish, description: Finish., parameters: {type: object}, returns: {done: true}}]
  mcps: [{name: notes, command: ${JSON.stringify([process.execPath, NAMES_SERVER, 'write_note', 'list_notes'])}}]
`;
const SCENARIOS = `defaults:
  agent: agent.yaml
  inputs: {messages: [{role: user, content: hi}]}
  model: {script: [{tool_calls: [{name: mcp__notes__write_note, args: {id: "1"}}]}, {text: ok}]}
scenarios:
  - name: misspelt tool_not_called
    expect: {checks: [{tool_not_called: {tool: mcp__notes__delete_note}}]}
  - name: misspelt terminal tool part
    expect: {terminal_tool: write_nte}
  - name: misspelt script call
    model: {script: [{tool_calls: [{name: mcp__notes__write_nte, args: {id: "1"}}]}, {text: ok}]}
    expect: {checks: [{tool_called: {tool: write_note}}]}
  - name: listed names
    expect: {terminal_tool: write_note, checks: [{tool_not_called: {tool: mcp__notes__list_notes}}, {tool_called: {tool: write_note}}]}
`;

interface Row {
  name: string;
  status: string;
  error: { type: string; message: string } | null;
  test_run: { tools: unknown[] };
  checks: Array<{ status: string }>;
}

/**
 * `agentcheck run .` in `dir` (with `extra` flags), its exit and the rows of its report.json. In
 * the test process (runMainFull): which names a variant's run holds is the run's logic; the
 * built CLI runs the shared suite below, with its validate.
 */
async function runSuiteIn(dir: string, extra: string[] = []): Promise<{ result: MainResult; rows: Array<Row & { variant: string }> }> {
  const result = await runMainFull(['run', '.', ...extra, '--reporter', 'json', '--out', 'o'], dir);
  return { result, rows: JSON.parse(readFileSync(join(dir, 'o/report.json'), 'utf8')).scenarios };
}

/** The build of the test of an MCP tool's argument names: delete_note closes its parameters (name), write_note does not. */
function argumentsAgent(tools: string): string {
  return AGENT.replace(
    JSON.stringify([process.execPath, NAMES_SERVER, 'write_note', 'list_notes']),
    `${JSON.stringify([process.execPath, NAMES_SERVER, 'delete_note(name)', 'write_note'])}${tools}`,
  );
}

/** Scenarios naming delete_note's argument, for the build `agent`. */
function argumentScenarios(agent: string): string {
  return `defaults:
  agent: ${agent}
  inputs: {messages: [{role: user, content: hi}]}
  model: {script: [{tool_calls: [{name: mcp__notes__delete_note, args: {name: todo}}]}, {text: ok}]}
scenarios:
  - name: argument typo
    expect: {checks: [{tool_not_called: {tool: delete_note, args: {nme: todo}}}]}
  - name: argument of a closed tool
    expect: {checks: [{tool_called: {tool: delete_note, args: {name: todo}}}]}
  - name: argument of an open tool
    expect: {checks: [{tool_not_called: {tool: write_note, args: {anything: x}}}]}
`;
}

describe('scenario names of an MCP server without a tools list', () => {
  // The cases with no variants are files of one suite, run once (table, JSON and JUnit, wide
  // enough that no problem wraps: a line of the terminal is a line of the message); each test
  // reads its own file's rows.
  const suite = shared(async (dir) => {
    const cwd = dir({
      'agent.yaml': AGENT,
      't.scenarios.yaml': SCENARIOS,
      'several.scenarios.yaml': `${SCENARIOS.split('scenarios:')[0]}scenarios:
  - name: two check typos
    expect: {checks: [{tool_not_called: {tool: mcp__notes__delete_note}}, {tool_called: {tool: write_nte}}]}
  - name: approval and check typos
    approvals: {default: approve, tools: {write_nte: deny}}
    expect: {checks: [{tool_called: {tool: lst_notes}}]}
`,
      // The same argument names, of a server without a tools list and of one with it.
      'open.yaml': argumentsAgent(''),
      'open.scenarios.yaml': argumentScenarios('open.yaml'),
      'listed.yaml': argumentsAgent(', tools: [delete_note, write_note]'),
      'listed.scenarios.yaml': argumentScenarios('listed.yaml'),
      'row.scenario.yaml': `name: "row {{ vars.tool }}"
agent: agent.yaml
dataset: [{tool: list_notes}, {tool: list_nots}]
inputs: {messages: [{role: user, content: hi}]}
model: {script: [{text: ok}]}
expect: {checks: [{tool_not_called: {tool: "{{ vars.tool }}"}}]}
`,
      'missing.yaml': AGENT.replace(JSON.stringify(process.execPath), JSON.stringify(`${process.execPath}-missing`)),
      'missing.scenario.yaml':
        'name: no server\nagent: missing.yaml\ninputs: {messages: [{role: user, content: hi}]}\nmodel: {script: [{text: ok}]}\nexpect: {checks: [{tool_not_called: {tool: finish}}]}\n',
    });
    // validate cannot see these names (the servers are not started): it accepts them.
    const validate = await runCli(['validate', 't.scenarios.yaml', 'open.scenarios.yaml', 'listed.scenarios.yaml'], cwd);
    const result = await runCli(['run', '.', '--reporter', 'table,json,junit', '--out', 'o'], cwd, { COLUMNS: '1000' });
    const rows: Array<Row & { file: string }> = JSON.parse(readFileSync(join(cwd, 'o/report.json'), 'utf8')).scenarios;
    const rowsOf = (file: string) => rows.filter((row) => row.file === join(cwd, file));
    return { cwd, validate, result, rowsOf, junit: readFileSync(join(cwd, 'o/junit.xml'), 'utf8') };
  });

  it('are held to the tools it lists once it runs: a name it does not list ends the run before any call', async () => {
    const { cwd, validate, result, rowsOf } = await suite();
    expect(validate.exitCode, validate.all).toBe(0);
    expect(result.exitCode, result.all).toBe(1);
    const byName = new Map(rowsOf('t.scenarios.yaml').map((row) => [row.name, row]));
    const file = join(cwd, 't.scenarios.yaml');

    const notCalled = byName.get('misspelt tool_not_called');
    expect(notCalled?.status).toBe('error');
    expect(notCalled?.error?.type).toBe('CONFIG_INVALID');
    expect(notCalled?.error?.message).toContain(
      `${file}:7:48 at scenarios[0].expect.checks[0].tool_not_called.tool: a tool_not_called check names no tool of the agent: "mcp__notes__delete_note"; expected one of: finish, mcp__notes__write_note, mcp__notes__list_notes`,
    );
    // Ended before the model's first call: the script's write_note was never made, and the
    // misspelt check, which would pass on a run that made no call, is not run (no checks).
    expect(notCalled?.test_run.tools).toEqual([]);
    expect(notCalled?.checks).toEqual([]);

    expect(byName.get('misspelt terminal tool part')?.error?.message).toContain(
      `${file}:9:29 at scenarios[1].expect.terminal_tool: expect.terminal_tool names no tool of the agent: "write_nte"; expected one of: finish, mcp__notes__write_note, mcp__notes__list_notes; did you mean "write_note"?`,
    );
    expect(byName.get('misspelt script call')?.error?.message).toContain(
      `${file}:11:43 at scenarios[2].model.script[0].tool_calls[0].name: the script calls "mcp__notes__write_nte", which the agent does not offer the model; expected one of: finish, mcp__notes__write_note, mcp__notes__list_notes; did you mean "mcp__notes__write_note"?`,
    );
    expect(byName.get('listed names')).toMatchObject({ status: 'pass', error: null });
    expect(byName.get('listed names')?.checks.map((check) => check.status)).toEqual(['pass', 'pass']);
  });

  it('several problems found once the server lists its tools are all told, one per line, as at load: in report.json, junit.xml and the terminal', async () => {
    const { cwd, result, rowsOf, junit } = await suite();
    expect(result.exitCode, result.all).toBe(1);
    const file = join(cwd, 'several.scenarios.yaml');
    const problems = [
      [
        `${file}:7:48 at scenarios[0].expect.checks[0].tool_not_called.tool: a tool_not_called check names no tool of the agent: "mcp__notes__delete_note"; expected one of: finish, mcp__notes__write_note, mcp__notes__list_notes; did you mean "mcp__notes__write_note"?`,
        `${file}:7:96 at scenarios[0].expect.checks[1].tool_called.tool: a tool_called check names no tool of the agent: "write_nte"; expected one of: finish, mcp__notes__write_note, mcp__notes__list_notes; did you mean "write_note"?`,
      ],
      // The approvals' problem and the check's, found at the same point, are both told, in line order.
      [
        `${file}:9:43 at scenarios[1].approvals.tools.write_nte: "write_nte" names no tool of the agent; expected one of: finish, mcp__notes__write_note, mcp__notes__list_notes; did you mean "mcp__notes__write_note"?`,
        `${file}:10:44 at scenarios[1].expect.checks[0].tool_called.tool: a tool_called check names no tool of the agent: "lst_notes"; expected one of: finish, mcp__notes__write_note, mcp__notes__list_notes; did you mean "list_notes"?`,
      ],
    ];
    expect(rowsOf('several.scenarios.yaml').map((row) => row.error)).toEqual(problems.map((lines) => ({ type: 'CONFIG_INVALID', message: lines.join('\n') })));
    const attribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
    for (const lines of problems) expect(junit).toContain(`<error message="${lines.map(attribute).join('&#10;')}" type="CONFIG_INVALID">`);
    // The terminal: each problem on its own line, the first after the error type.
    const shown = result.stdout.split('\n');
    for (const [first, second] of problems) {
      expect(shown).toContain(`  ✗ CONFIG_INVALID: ${first}`);
      expect(shown).toContain(`  ✗ ${second}`);
    }
  });

  it("holds a check's argument names to the parameters an MCP tool closes once its server lists them, with or without a tools list", async () => {
    // Not at load: the parameters come from the server (validate accepted both files).
    const { cwd, validate, result, rowsOf } = await suite();
    expect(validate.exitCode, validate.all).toBe(0);
    expect(result.exitCode, result.all).toBe(1);
    for (const file of ['open.scenarios.yaml', 'listed.scenarios.yaml']) {
      const rows = rowsOf(file);
      expect(
        rows.map((row) => `${row.name} ${row.status}`),
        file,
      ).toEqual(['argument typo error', 'argument of a closed tool pass', 'argument of an open tool pass']);
      expect(rows[0].error?.message, file).toBe(
        `${join(cwd, file)}:7:68 at scenarios[0].expect.checks[0].tool_not_called.args.nme: argument "nme" is not a parameter of mcp__notes__delete_note; expected one of: name; did you mean "name"?`,
      );
      expect(rows[0].checks, file).toEqual([]);
    }
  });

  it("names a dataset scenario's row in a problem found once the server lists its tools", async () => {
    const { result, rowsOf } = await suite();
    expect(result.exitCode, result.all).toBe(1);
    const rows = rowsOf('row.scenario.yaml');
    expect(rows.map((row) => `${row.name} ${row.status}`)).toEqual(['row list_notes pass', 'row list_nots error']);
    expect(rows[1].error?.message).toMatch(
      /row\.scenario\.yaml:6:\d+ at expect\.checks\[0\]\.tool_not_called\.tool: a tool_not_called check names no tool of the agent: "list_nots"; .* \(dataset row dataset\[1\]\)$/,
    );
  });

  it('a server that does not start leaves its rows without checks, which would judge a run that never happened', async () => {
    const { result, rowsOf } = await suite();
    expect(result.exitCode, result.all).toBe(1);
    const [row] = rowsOf('missing.scenario.yaml');
    expect(row.status).toBe('error');
    expect(row.error?.type).toBe('MCP_START_FAILED');
    expect(row.checks).toEqual([]);
  });

  it("with variants, a name the same server offers another variant's build counts, and a name none offers is refused in every run", async () => {
    const dir = tempDir({
      'agent.yaml': AGENT,
      // The variant allow-lists write_note only: list_notes is offered by the base build alone.
      'agentcheck.config.yaml': 'variants: {narrow: {set: {"agent.mcps[name=notes]": {tools: [write_note]}}}}\n',
      't.scenarios.yaml': `${SCENARIOS.split('scenarios:')[0]}scenarios:
  - name: base only tool
    expect: {checks: [{tool_not_called: {tool: list_notes}}]}
  - name: no such tool
    expect: {checks: [{tool_not_called: {tool: list_note}}]}
`,
    });
    const { result, rows } = await runSuiteIn(dir);
    expect(result.exitCode, result.all).toBe(1);
    expect(rows.map((row) => `${row.name} ${row.variant} ${row.status}`).sort()).toEqual([
      'base only tool base pass',
      'base only tool narrow pass',
      'no such tool base error',
      'no such tool narrow error',
    ]);
  });

  it("a variant that removes the server still holds the names: another build's server it did not start offers none", async () => {
    const dir = tempDir({
      'agent.yaml': AGENT,
      'agentcheck.config.yaml': 'variants: {noserver: {remove: ["agent.mcps[name=notes]"]}}\n',
      't.scenarios.yaml': `defaults:
  agent: agent.yaml
  inputs: {messages: [{role: user, content: hi}]}
  model: {script: [{tool_calls: [{name: finish, args: {}}]}, {text: ok}]}
scenarios:
  - name: check typo
    expect: {checks: [{tool_not_called: {tool: mcp__notes__delete_nte}}]}
  - name: approval typo
    approvals: {default: approve, tools: {delete_nte: deny}}
  - name: agent tool only
    expect: {terminal_tool: finish}
`,
    });
    const { result, rows } = await runSuiteIn(dir, ['--variant', 'noserver']);
    expect(result.exitCode, result.all).toBe(1);
    expect(rows.map((row) => `${row.name} ${row.variant} ${row.status} ${row.error?.type ?? ''}`.trim())).toEqual([
      'check typo noserver error CONFIG_INVALID',
      'approval typo noserver error CONFIG_INVALID',
      'agent tool only noserver pass',
    ]);
  });

  it("a variant whose server is started another way does not leave another run's argument names unchecked", async () => {
    const base = [process.execPath, NAMES_SERVER, 'get_item(key)'];
    const other = { command: [process.execPath, NAMES_SERVER, 'get_item(key)', 'zip(y)'], tools: ['get_item'] };
    const dir = tempDir({
      'agent.yaml': AGENT.replace(JSON.stringify([process.execPath, NAMES_SERVER, 'write_note', 'list_notes']), JSON.stringify(base)),
      'agentcheck.config.yaml': `variants: {other: {set: {"agent.mcps[name=notes]": ${JSON.stringify(other)}}}}\n`,
      't.scenarios.yaml': `defaults:
  agent: agent.yaml
  inputs: {messages: [{role: user, content: hi}]}
  model: {script: [{tool_calls: [{name: mcp__notes__get_item, args: {key: "1"}}]}, {text: ok}]}
scenarios:
  - name: argument typo
    expect: {checks: [{tool_not_called: {tool: get_item, args: {kee: "1"}}}]}
  - name: argument
    expect: {checks: [{tool_called: {tool: get_item, args: {key: "1"}}}]}
`,
    });
    const { result, rows } = await runSuiteIn(dir);
    expect(result.exitCode, result.all).toBe(1);
    expect(rows.map((row) => `${row.name} ${row.variant} ${row.status}`).sort()).toEqual([
      'argument base pass',
      'argument other pass',
      'argument typo base error',
      'argument typo other error',
    ]);
  });

  it('a single run holds its terminal tool and script to the listed tools too: test-run and the library', async () => {
    const dir = tempDir({
      'agent.yaml': AGENT,
      'ok.yaml': '- tool_calls: [{name: mcp__notes__write_note, args: {id: "1"}}]\n- text: ok\n',
      'typo.yaml': '- tool_calls: [{name: mcp__notes__write_nte, args: {id: "1"}}]\n- text: ok\n',
    });
    const testRun = (script: string, terminal: string) =>
      runCli(['test-run', '--agent', 'agent.yaml', '--message', 'hi', '--script', script, '--terminal-tool', terminal, '--json'], dir);
    // A misspelt terminal tool and a misspelt script call in one run: both are told, one per line.
    const typos = await testRun('typo.yaml', 'write_nte');
    expect(typos.exitCode).toBe(1);
    const refused = JSON.parse(typos.stdout);
    expect(refused).toMatchObject({ verdict: 'failed', stop_reason: 'error', tools: [] });
    const [, terminalTypo, scriptTypo] = /^the invoke errored \(CONFIG_INVALID: (.*)\n(.*)\)$/.exec(refused.verdict_reason) ?? [];
    expect(terminalTypo, refused.verdict_reason).toBe(
      '--terminal-tool: it names no tool of the agent: "write_nte"; expected one of: finish, mcp__notes__write_note, mcp__notes__list_notes; did you mean "write_note"?',
    );
    expect(scriptTypo, refused.verdict_reason).toContain(`${join(dir, 'typo.yaml')}:1:23 at [0].tool_calls[0].name: the script calls "mcp__notes__write_nte"`);
    expect(JSON.parse((await testRun('ok.yaml', 'write_note')).stdout)).toMatchObject({ verdict: 'pass' });

    // MCP test_run's refusal of the terminal tool is held in mcp-listed-approvals.test.ts, in the
    // same call as a misspelt approval (one `agentcheck mcp` process for both).
    const request = {
      agent: 'agent.yaml',
      inputs: { messages: [{ role: 'user', content: 'hi' }] },
      script: [{ tool_calls: [{ name: 'mcp__notes__write_note', args: { id: '1' } }] }, { text: 'ok' }],
      expectations: { terminal_tool: 'write_nte' },
    };
    const { testRun: libraryTestRun } = await import(join(ROOT, 'dist/src/index.js'));
    const viaLibrary = await libraryTestRun({ ...request, agent: join(dir, 'agent.yaml') });
    expect(viaLibrary).toMatchObject({ verdict: 'failed', stop_reason: 'error', tools: [] });
    expect(viaLibrary.verdict_reason).toContain(
      'CONFIG_INVALID: testRun at expectations.terminal_tool: expectations.terminal_tool names no tool of the agent: "write_nte"; expected one of: finish, mcp__notes__write_note, mcp__notes__list_notes; did you mean',
    );
  });
});
