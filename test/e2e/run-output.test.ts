import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/runner/report/report.js';
import { once, sharedDir } from '../helpers/shared-fixture.js';
import { runMain } from '../helpers/run-main.js';
import { runMainFull } from '../helpers/run-main-full.js';
import { tempDir } from '../helpers/temp-dir.js';
import { execa } from 'execa';
import { AGENT_YAML, CLI, passingScenario, runCli } from './cli.js';

const NEVER_FINISHES = `  - name: never finishes
    agent: agent.yaml
    inputs: {messages: [{role: user, content: go}]}
    model: {script: [{tool_calls: [{name: lookup, args: {id: "2"}}]}, {text: "gave up"}]}
    expect: {terminal_tool: finish}
`;

/** Three scenarios, one failing: suite.scenarios.yaml#passes, #never finishes, other.scenario.yaml#other (x). */
const SUITE_FILES = {
  'agent.yaml': AGENT_YAML,
  'suite.scenarios.yaml': `scenarios:\n  - ${passingScenario('passes').replace(/\n/g, '\n    ')}\n${NEVER_FINISHES}`,
  'other.scenario.yaml': passingScenario('other (x)'),
};

function suite(): string {
  return tempDir(SUITE_FILES);
}

/** A build whose finish asks for approval, and a scenario denying it: denied.scenario.yaml#denied finish. */
const DENIED_ID = 'denied.scenario.yaml#denied finish';
const DENIED_FILES = {
  'ask-agent.yaml': AGENT_YAML.replace('returns: {done: true}}', 'returns: {done: true}, permission: ask}'),
  'denied.scenario.yaml': `name: denied finish
agent: ask-agent.yaml
inputs: {messages: [{role: user, content: go}]}
approvals: {tools: {finish: deny}}
model: {script: [{tool_calls: [{name: finish, args: {}}]}, {text: "stopped"}]}
expect: {terminal_tool: finish}
`,
};

/** Two flows whose deterministic steps call echo (a.scenario.yaml: no route; b.scenario.yaml: reaches end, a check fails). */
const flow = (routes: string) => `id: steps
agent:
  name: Steps
flow:
  entry_point: a
  components:
    - {name: a, type: deterministic_step, tool_name: echo, inputs: [{literal: "hi", as: text}]}
    - {name: b, type: deterministic_step, tool_name: echo, inputs: [{literal: "x", as: text}]}
  routers:
    - {from: a, condition: {input: "context:a.tool_result", routes: ${routes}}}
    - {from: b, to: end}
`;
const flowScenario = (name: string, agent: string, expect = '') =>
  `name: ${name}\nagent: ./${agent}\ninputs: {messages: [{role: user, content: go}]}\n${expect}`;
const FLOW_IDS = ['a.scenario.yaml#no route', 'b.scenario.yaml#ends'];
const FLOW_FILES = {
  'noroute.yaml': flow('{nope: b}'),
  'ends.yaml': flow('{hi: b}'),
  'a.scenario.yaml': flowScenario('no route', 'noroute.yaml'),
  'b.scenario.yaml': flowScenario('ends', 'ends.yaml', 'expect: {checks: [{tool_called: {tool: echo, args: {text: nope}}}]}\n'),
};

// An external agent whose tool call reaches agentcheck only as an ai.toolCall span over OTLP, never
// through the model bridge; the export is answered before the agent prints, so nothing depends on
// the wait. w.scenario.yaml#weather fails its output check.
const EXTERNAL_AGENT = `const now = String(BigInt(Date.now()) * 1000000n);
const span = { traceId: 'ab'.repeat(16), spanId: 'c'.repeat(16), name: 'ai.toolCall', startTimeUnixNano: now, endTimeUnixNano: now, attributes: [
  { key: 'ai.toolCall.name', value: { stringValue: 'get_weather' } },
  { key: 'ai.toolCall.id', value: { stringValue: 'call_1' } },
  { key: 'ai.toolCall.args', value: { stringValue: '{"city":"Paris"}' } },
] };
const res = await fetch(process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [span] }] }] }) });
if (!res.ok) throw new Error('export refused: ' + (await res.text()));
process.stdout.write(JSON.stringify({ output: 'sunny' }));
`;
const EXTERNAL_ID = 'w.scenario.yaml#weather';
const EXTERNAL_FILES = {
  'agent.mjs': EXTERNAL_AGENT,
  'agent.yaml': 'id: weather\nexternal:\n  command: [node, ./agent.mjs]\n',
  'w.scenario.yaml': `name: weather
agent: agent.yaml
inputs: {messages: [{role: user, content: weather?}]}
expect:
  checks:
    - output: {contains: rain}
    - tool_called: {tool: get_weather}
`,
};

const lastLine = (text: string) => text.trimEnd().split('\n').at(-1);

/**
 * A run's terminal output without the failure details of other tests' scenarios (each a
 * `FAIL|ERROR <id> [variant]` line and the indented lines under it): a test sharing a run asserts
 * on what its own run would print.
 */
function withoutDetailsOf(stdout: string, ids: string[]): string {
  let skipping = false;
  const kept = stdout.split('\n').filter((line) => {
    if (/^[A-Z]+( [A-Z]+)? \S/.test(line)) skipping = ids.some((id) => line.includes(` ${id} [`));
    else if (!line.startsWith('  ')) skipping = false;
    return !skipping;
  });
  return kept.join('\n');
}

describe('agentcheck run output (end to end)', () => {
  // The three-scenario suite and the denied call, run once: read by the two tests below, each
  // about its own scenario's lines (both fail: exit 1 either way).
  const SUITE_AND_DENIED = sharedDir({ ...SUITE_FILES, ...DENIED_FILES });
  const suiteAndDeniedRun = once(() => runCli(['run', '.', '--out', 'out', '--reporter', 'table,json,html'], SUITE_AND_DENIED, { NO_COLOR: '1' }));

  it('shows a denied call as denied, not as a tool error, and marks it denied in the report transcript', async () => {
    const result = await suiteAndDeniedRun();
    expect(result.exitCode, result.all).toBe(1);
    expect(result.stdout).toContain('    1. finish({}) -> denied (Denied: the user did not approve this call to finish.)');
    const report = JSON.parse(readFileSync(join(SUITE_AND_DENIED, 'out/report.json'), 'utf8')) as Report;
    const row = report.scenarios.find((scenario) => scenario.id === DENIED_ID);
    const denied = row?.transcript?.find((message) => message.role === 'tool');
    expect(denied).toMatchObject({ tool_name: 'finish', is_error: true, denied: true });
  });

  it('shows a failure with its calls and stop reason, and ends naming every report file', async () => {
    const result = await suiteAndDeniedRun();
    expect(result.exitCode, result.all).toBe(1);
    expect(result.stdout).toContain(
      [
        'FAIL suite.scenarios.yaml#never finishes [base]',
        '  ✗ verdict incomplete, expected pass: terminal tool finish was never called; saw lookup x1',
        '  Tool calls (1):',
        '    1. lookup({"id":"2"}) -> returned {"status":"ok"}',
        '  Stopped: end_turn (the model answered without asking for a tool)',
      ].join('\n'),
    );
    expect(lastLine(result.stdout)).toBe('Reports: out/spans.jsonl, out/report.json, out/report.html');
    for (const line of withoutDetailsOf(result.stdout, [DENIED_ID]).split('\n')) expect(line.length).toBeLessThanOrEqual(100);
  });

  // The flows' failures and the external agent's, run once in one folder (their files apart): read
  // by the two tests below, each about its own scenarios' rows and lines.
  const FLOWS_AND_EXTERNAL = sharedDir({ ...FLOW_FILES, ...EXTERNAL_FILES });
  // In-process (runMainFull): what the terminal report says of these rows is the reporter's logic;
  // the built CLI runs a failing suite (exit 1) above.
  const flowsAndExternalRun = once(() =>
    runMainFull(['run', '.', '--out', 'out', '--reporter', 'table,json'], FLOWS_AND_EXTERNAL, { NO_COLOR: '1', COLUMNS: '200' }),
  );

  it("a flow's failure lists its deterministic steps' calls as the table counts them, and never says the model answered", async () => {
    const result = await flowsAndExternalRun();
    expect(result.exitCode, result.all).toBe(1);
    expect(result.stdout).toMatch(/│ ERROR +│ a\.scenario\.yaml#no route +│ base +│ failed +│ - +│ echo x1 /);
    expect(result.stdout).toContain(
      [
        'ERROR a.scenario.yaml#no route [base]',
        '  ✗ FLOW_NO_ROUTE: router from "a": context:a.tool_result is "hi", which matches none of the routes ("nope") and there is no default_route',
        '  Flow step calls: echo x1 (deterministic steps and plan components; arguments and results in spans.jsonl)',
        '  Stopped: error (the run ended with an error)',
      ].join('\n'),
    );
    expect(result.stdout).toContain(
      [
        '  Flow step calls: echo x2 (deterministic steps and plan components; arguments and results in spans.jsonl)',
        '  Stopped: end_turn (the flow reached end)',
      ].join('\n'),
    );
    const own = withoutDetailsOf(result.stdout, [EXTERNAL_ID]);
    expect(own).not.toContain('Tool calls: none');
    expect(own).not.toContain('the model answered');
    const report = JSON.parse(readFileSync(join(FLOWS_AND_EXTERNAL, 'out/report.json'), 'utf8')) as Report;
    const flowRows = report.scenarios.filter((row) => FLOW_IDS.includes(row.id));
    expect(flowRows.map((row) => row.flow_calls)).toEqual([[{ name: 'echo', called: 1 }], [{ name: 'echo', called: 2 }]]);
  });

  it("an external agent's failure lists the calls its own spans show, as the tools column does, and says only that the agent answered", async () => {
    const result = await flowsAndExternalRun();
    expect(result.exitCode, result.all).toBe(1);
    expect(result.stdout).toMatch(/│ FAIL +│ w\.scenario\.yaml#weather +│ base +│ \S+ +│ 1\/2 +│ get_weather x1 /);
    expect(result.stdout).toContain(
      [
        '  ✗ output#0: expected output to contain "rain"; output was "sunny"',
        "  Tool calls from the agent's own spans: get_weather x1 (past the model bridge; arguments and results in spans.jsonl)",
        '  Stopped: end_turn (the agent answered)',
      ].join('\n'),
    );
    const own = withoutDetailsOf(result.stdout, FLOW_IDS);
    expect(own).not.toContain('Tool calls: none');
    expect(own).not.toContain('the model answered');
  });

  it('past 200 rows the table shows the rows that did not pass; the line that replaces it says where every row is', async () => {
    const dir = tempDir({ 'agent.yaml': AGENT_YAML, 'a.scenario.yaml': passingScenario('passes') });
    const omitted = (stdout: string) => stdout.split('\n').find((line) => line.includes('omitted'));
    const tableOnly = await runMainFull(['run', '.', '--repeat', '201', '--out', 'out', '--reporter', 'table'], dir, { NO_COLOR: '1', COLUMNS: '200' });
    expect(tableOnly.exitCode, tableOnly.all).toBe(0);
    expect(tableOnly.stdout).not.toContain('│ PASS');
    expect(omitted(tableOnly.stdout)).toBe(
      '201 passing rows omitted (201 rows: past 200 the table shows only the rows that did not pass; for every row, add --reporter json (or md))',
    );
    const withJson = await runMainFull(['run', '.', '--repeat', '201', '--out', 'out'], dir, { NO_COLOR: '1', COLUMNS: '200' });
    expect(omitted(withJson.stdout)).toContain('; every row is in report.json)');
    expect((JSON.parse(readFileSync(join(dir, 'out/report.json'), 'utf8')) as Report).scenarios).toHaveLength(201);
  });

  it('output piped into a reader that is gone (| true, as | head once it has its lines): no EPIPE crash, reports written, exit code kept', async () => {
    const dir = suite();
    // `true` exits without reading, long before the CLI's first write: every write meets a closed pipe.
    const piped = await execa('bash', ['-c', `node "${CLI}" run . --out out | true; echo "exit=\${PIPESTATUS[0]}" >&2`], {
      cwd: dir,
      reject: false,
      env: { CI: 'true' },
    });
    expect(piped.stderr).not.toContain('EPIPE');
    expect(piped.stderr).toContain('exit=1');
    expect((JSON.parse(readFileSync(join(dir, 'out/report.json'), 'utf8')) as Report).scenarios).toHaveLength(3);
  });

  it('--quiet prints the failures and the summary, then the report files', async () => {
    const dir = suite();
    const result = await runMainFull(['run', '.', '--out', 'out', '--quiet'], dir);
    expect(result.exitCode, result.all).toBe(1);
    expect(result.stdout).not.toContain('┌');
    expect(result.stdout.trim().split('\n')[0]).toBe('FAIL suite.scenarios.yaml#never finishes [base]');
    expect(result.stdout).toContain('3 scenarios: 2 passed, 1 failed, 0 errored');
    expect(lastLine(result.stdout)).toBe('Reports: out/spans.jsonl, out/report.json');
  });

  it('--quiet prints no progress lines on stderr, which a 50-run suite off a TTY otherwise gets', async () => {
    const dir = tempDir({ 'agent.yaml': AGENT_YAML, 'one.scenario.yaml': passingScenario('one') });
    const progress = /^agentcheck: \d+\/50 done, 0 failed, ETA [\d.]+ s$/gm;
    const loud = await runMainFull(['run', '.', '--out', 'loud', '--repeat', '50', '--reporter', 'json'], dir);
    expect(loud.exitCode, loud.all).toBe(0);
    expect(loud.stderr.match(progress)).toHaveLength(10);
    const quiet = await runMainFull(['run', '.', '--out', 'quiet', '--repeat', '50', '--reporter', 'json', '--quiet'], dir);
    expect(quiet.exitCode, quiet.all).toBe(0);
    expect(quiet.stderr).not.toContain('done,');
    expect(quiet.stderr).toBe('');
    expect(quiet.stdout).toContain('50 runs (1 scenario x 50 repeats): 50 passed');
  });

  it('--grep selects by text or by regular expression: a pasted name with ( ) selects it, plain words still match', async () => {
    const dir = suite();
    const regex = await runMainFull(['run', '.', '--out', 'out', '--reporter', 'json', '--grep', '^suite.*#(passes|never)'], dir);
    expect(regex.exitCode, regex.all).toBe(1);
    // Without the table reporter the terminal still gets the failure, its reason and the summary.
    expect(regex.stdout).not.toContain('┌');
    expect(regex.stdout).toContain('FAIL suite.scenarios.yaml#never finishes [base]');
    expect(regex.stdout).toContain('terminal tool finish was never called');
    expect(regex.stdout).toContain('2 scenarios: 1 passed, 1 failed, 0 errored');
    expect(lastLine(regex.stdout)).toBe('Reports: out/spans.jsonl, out/report.json');
    const report = JSON.parse(readFileSync(join(dir, 'out/report.json'), 'utf8')) as Report;
    expect(report.scenarios.map((row) => row.name)).toEqual(['passes', 'never finishes']);
    const word = await runMainFull(['run', '.', '--out', 'out2', '--reporter', 'json', '--grep', 'OTHER'], dir);
    expect(word.exitCode, word.all).toBe(0);
    // A scenario's name pasted as it is selects it, although `(x)` means something else to a regex.
    for (const [grep, out] of [
      ['OTHER (X)', 'out3'],
      // Not a valid expression: matched as text, not an error.
      ['other (x', 'out4'],
    ]) {
      const pasted = await runMainFull(['run', '.', '--out', out, '--reporter', 'json', '--grep', grep], dir);
      expect(pasted.exitCode, pasted.all).toBe(0);
      expect((JSON.parse(readFileSync(join(dir, out, 'report.json'), 'utf8')) as Report).scenarios.map((row) => row.name)).toEqual(['other (x)']);
    }
    // Refusals below: a bad flag value on the built CLI, the other cases through the CLI's entry
    // in-process (runMain: nothing runs, nothing is written).
    // Files were found; the filter left none: the message says so instead of naming file patterns.
    const none = await runMain(['run', '.', '--grep', 'nomatch'], dir);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain('none of the 3 scenario(s) found matches --grep "nomatch"');
    // A folder with its own config whose globs match nothing: the message names the globs where they are.
    const globs = tempDir({ 'nomatch/agentcheck.config.yaml': 'scenarios: ["tests/**/*.scenario.yaml"]\n', 'nomatch/agent.yaml': AGENT_YAML });
    const noFiles = await runMain(['run', 'nomatch'], globs);
    expect(noFiles.exitCode).toBe(2);
    expect(noFiles.stderr).toMatch(/no scenarios to run: .*agentcheck\.config\.yaml:1:\d+ at scenarios: matches no scenario file/);
    // A bad flag value is one error line and a hint, not the whole help text.
    const badFlag = await runCli(['run', '.', '--repeat', '0'], dir);
    expect(badFlag.exitCode).toBe(2);
    expect(badFlag.stderr).toContain("argument '0' is invalid");
    expect(badFlag.stderr).toContain('(add --help to the command for its usage)');
    expect(badFlag.stderr).not.toContain('Usage:');
    // Number() reads 1e3 as a whole number; a flag that says "a whole number" does not (0x2 and 2.
    // too: test/runner/option-values.test.ts holds the flag's parser to each).
    const odd = await runMain(['run', '.', '--repeat', '1e3'], dir);
    expect(odd.exitCode).toBe(2);
    expect(odd.stderr).toContain('expected a whole number >= 1');
    // An empty selector (an unset CI variable) is refused, not read as "everything" or the default.
    for (const flag of ['--variant', '--tag']) {
      const empty = await runMain(['run', '.', flag, ''], dir);
      expect(empty.exitCode, `${flag} ''`).toBe(2);
      expect(empty.stderr).toContain('expected a name or a comma list of names, got "" (an empty item)');
    }
    // --overlay takes folders: its empty item is said so (as its parser says of "skills/a,":
    // test/runner/option-values.test.ts).
    const emptyOverlay = await runMain(['run', '.', '--overlay', ''], dir);
    expect(emptyOverlay.exitCode).toBe(2);
    expect(emptyOverlay.stderr).toContain('expected a folder or a comma list of folders, got "" (an empty item)');
    for (const flag of ['--out', '--only-failed', '--config', '--grep']) {
      const empty = await runMain(['run', '.', flag, ''], dir);
      expect(empty.exitCode, `${flag} ''`).toBe(2);
      expect(empty.stderr).toContain('expected a value, got an empty string');
    }
    const noReporter = await runMain(['run', '.', '--reporter', 'json,'], dir);
    expect(noReporter.exitCode).toBe(2);
    expect(noReporter.stderr).toContain('--reporter: an empty reporter name (check the comma list); expected one of: table');
  });

  // The suite in one folder for the tests below; its run with two --reporter flags (out/) is the
  // first's case and the report whose failures the others rerun. In-process (runMainFull): how the
  // flags add up is the parser's logic; the built CLI runs this suite (exit 1) above.
  const SUITE = sharedDir(SUITE_FILES);
  const suiteRunJsonAndMd = once(() => runMainFull(['run', '.', '--out', 'out', '--reporter', 'json', '--reporter', 'md'], SUITE));

  it('a repeated --reporter adds up; a second --grep is refused, not a silent replacement of the first', async () => {
    const dir = SUITE;
    const both = await suiteRunJsonAndMd();
    expect(both.exitCode, both.all).toBe(1);
    expect(lastLine(both.stdout)).toBe('Reports: out/spans.jsonl, out/report.json, out/report.md');
    // An empty addition is still an empty item.
    const empty = await runMain(['run', '.', '--reporter', 'json', '--reporter', ''], dir);
    expect(empty.exitCode).toBe(2);
    expect(empty.stderr).toContain('--reporter: an empty reporter name (check the comma list)');
    const twice = await runMain(['run', '.', '--out', 'out2', '--grep', 'passes', '--grep', 'other'], dir);
    expect(twice.exitCode).toBe(2);
    expect(twice.stderr).toContain(
      `--grep is given twice (first "passes"); give it once: as a regular expression, --grep 'a|b' selects the scenarios matching either`,
    );
    // Nothing ran.
    expect(existsSync(join(dir, 'out2'))).toBe(false);
    const either = await runCli(['run', '.', '--out', 'out3', '--reporter', 'json', '--grep', 'passes|other'], dir);
    expect(either.exitCode, either.all).toBe(0);
    expect((JSON.parse(readFileSync(join(dir, 'out3/report.json'), 'utf8')) as Report).suite.grep).toBe('passes|other');
  });

  it('--only-failed reruns the failed scenario x variant pairs of a report; a missing or invalid report exits 2', async () => {
    const dir = SUITE;
    const first = await suiteRunJsonAndMd();
    expect(first.exitCode, first.all).toBe(1);
    const again = await runMainFull(['run', '.', '--out', 'again', '--reporter', 'json', '--only-failed', 'out/report.json'], dir);
    expect(again.exitCode, again.all).toBe(1);
    const report = JSON.parse(readFileSync(join(dir, 'again/report.json'), 'utf8')) as Report;
    expect(report.scenarios.map((row) => `${row.id} ${row.variant}`)).toEqual(['suite.scenarios.yaml#never finishes base']);
    expect(report.scenarios[0].transcript?.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);

    // The failed scenario is here; --grep leaves it out: the message says so rather than "wrong folder".
    const filtered = await runMain(['run', '.', '--out', 'again', '--reporter', 'json', '--only-failed', 'out/report.json', '--grep', 'denied'], dir);
    expect(filtered.exitCode).toBe(2);
    expect(filtered.stderr).toContain('none of the 1 failed scenario(s) of out/report.json matches --grep "denied"');

    const missing = await runMain(['run', '.', '--only-failed', 'nope/report.json'], dir);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('nope/report.json: report not found');
    const invalid = await runMain(['run', '.', '--only-failed', 'agent.yaml'], dir);
    expect(invalid.exitCode).toBe(2);
    expect(invalid.stderr).toMatch(/agent\.yaml:1:\d+: is not valid JSON/);
  });

  it('--only-failed reruns the failures and what an interrupt left not run, and names the failed pairs no longer in the suite', async () => {
    const dir = SUITE;
    expect((await suiteRunJsonAndMd()).exitCode).toBe(1);
    // The suite's report as an interrupt leaves it (other (x) never ran), after a failed scenario
    // was renamed (its row kept under the old name, as an earlier report has it).
    const report = JSON.parse(readFileSync(join(dir, 'out/report.json'), 'utf8')) as Report;
    const row = (name: string) => report.scenarios.find((scenario) => scenario.name === name)!;
    const [passes, failed, other] = [row('passes'), row('never finishes'), row('other (x)')];
    expect([passes.status, failed.status, other.status]).toEqual(['pass', 'fail', 'pass']);
    const renamed = { ...failed, id: 'suite.scenarios.yaml#gave up', name: 'gave up' };
    const notRun = { ...other, status: 'not_run' as const, reason: 'not run: the suite was interrupted', checks: [], test_run: null };
    report.interrupted = true;
    report.scenarios = [passes, failed, renamed, notRun];
    report.summary = { ...report.summary, total: 4, passed: 1, failed: 2, not_run: 1 };
    writeFileSync(join(dir, 'interrupted.json'), JSON.stringify(report));
    const again = await runMainFull(['run', '.', '--out', 'again-interrupted', '--reporter', 'json', '--only-failed', 'interrupted.json'], dir);
    expect(again.exitCode, again.all).toBe(1);
    expect(again.stderr).toContain(
      'agentcheck: 1 failed scenario x variant pair(s) of interrupted.json are not in this suite (renamed or removed?) and do not run: suite.scenarios.yaml#gave up [base]',
    );
    const rerun = JSON.parse(readFileSync(join(dir, 'again-interrupted/report.json'), 'utf8')) as Report;
    expect(rerun.scenarios.map((row) => `${row.id} ${row.status}`).sort()).toEqual([`${other.id} pass`, `${failed.id} fail`].sort());
  });

  it('--only-failed with a --variant that leaves out every failed pair says so', async () => {
    const failing = passingScenario('one', '    - output: {contains: "never said"}\n');
    const dir = tempDir({
      'agent.yaml': AGENT_YAML,
      'a.scenario.yaml': failing,
      'agentcheck.config.yaml': 'variants:\n  lean: {set: {agent: {max_turns: 6}}}\n',
    });
    // The report of a run of --variant lean: the suite's report, its failed row made a.scenario.yaml#one's in lean.
    expect((await suiteRunJsonAndMd()).exitCode).toBe(1);
    const report = JSON.parse(readFileSync(join(SUITE, 'out/report.json'), 'utf8')) as Report;
    const failed = report.scenarios.find((row) => row.status === 'fail')!;
    report.scenarios = [{ ...failed, id: 'a.scenario.yaml#one', name: 'one', file: 'a.scenario.yaml', variant: 'lean' }];
    report.summary = { ...report.summary, total: 1, passed: 0, failed: 1 };
    mkdirSync(join(dir, 'out'));
    writeFileSync(join(dir, 'out/report.json'), JSON.stringify(report));
    const base = await runMain(['run', '--only-failed', 'out/report.json', '--variant', 'base'], dir);
    expect(base.exitCode).toBe(2);
    expect(base.stderr).toContain('none of the 1 failed scenario(s) of out/report.json matches --variant base');
  });

  it('lays the terminal report out for COLUMNS: every line of a run with long variant names fits', async () => {
    const dir = suite();
    writeFileSync(
      join(dir, 'agentcheck.config.yaml'),
      'variants:\n  terse-instructions-with-worked-examples: {set: {agent: {max_turns: 6}}}\n  strict-permissions-and-a-lean-toolset: {set: {agent: {max_turns: 7}}}\n',
    );
    for (const columns of [60, 80]) {
      const result = await runMainFull(['run', '--config', 'agentcheck.config.yaml', '--out', 'out'], dir, { COLUMNS: String(columns) });
      expect(result.exitCode, result.all).toBe(1);
      expect(result.stdout).toContain('│ variant');
      for (const line of result.stdout.trimEnd().split('\n')) expect(line.length, `${columns}: ${line}`).toBeLessThanOrEqual(columns);
    }
    const bad = await runMainFull(['run', '--config', 'agentcheck.config.yaml', '--out', 'out'], dir, { COLUMNS: 'wide' });
    expect(bad.stderr).toContain('ignoring COLUMNS="wide": expected a whole number of columns; laying the report out for 100');
    expect(bad.exitCode).toBe(1);
  });
});
