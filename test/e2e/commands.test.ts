import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { linesAbout, once, oncePerKey, sharedDir } from '../helpers/shared-fixture.js';
import { runMain } from '../helpers/run-main.js';
import { tempDir } from '../helpers/temp-dir.js';
import { AGENT_YAML, passingScenario, runCli } from './cli.js';

const SCRIPT = `- tool_calls: [{name: lookup, args: {id: "1"}}]
- tool_calls: [{name: finish, args: {}}]
- text: all done
`;

/** A misspelt script call (finsh), check tool (lookp) and check argument (di). */
const TYPOS_SCENARIO = passingScenario('typos')
  .replace('{name: finish, args: {}}', '{name: finsh, args: {}}')
  .replace('tool_called: {tool: lookup, args: {id: "1"}}', 'tool_not_called: {tool: lookp}\n    - tool_called: {tool: lookup, args: {di: "1"}}');

/** A scenario whose one-text run is held to `checks` (YAML list items, indented 4). */
const vacuousScenario = (checks: string) => `name: vacuous
agent: agent.yaml
inputs: {messages: [{role: user, content: "x"}]}
model: {script: [{text: "anything at all"}]}
expect:
  checks:
${checks}`;

/** Empty lists of texts and calls that every run would hold, on lines 7 to 10. */
const EMPTY_LISTS_SCENARIO = vacuousScenario(`    - output: {contains: []}
    - output: {not_contains: []}
    - tool_sequence: {mode: superset, calls: []}
    - tool_sequence: {mode: in_order, calls: []}
`);

/** spans checks on values agentcheck's own attributes never hold (lines 7 to 11), each of which a count: {equals: 0} passed. */
const SPAN_VALUES_SCENARIO = vacuousScenario(
  [
    ['agentcheck.stop_reason', 'is', 'endturn'],
    ['gen_ai.operation.name', 'is', 'execute_tol'],
    ['agentcheck.tool.is_error', 'eq', '"true"'],
    ['agentcheck.tool.source', 'startswith', 'modle'],
    ['agentcheck.tool.kind', 'is', 'bultin'],
  ]
    .map(
      ([key, operator, value]) =>
        `    - spans: {query: {filtering: {field: attributes, key: ${key}, operator: ${operator}, value: ${value}}}, count: {equals: 0}}\n`,
    )
    .join(''),
);

const BETA_SKILL = '---\nname: beta\ndescription: Beta skill.\n---\nBeta body.\n';

/** A scenario delivering skills/beta on demand, loading it, held to `check` (line 8). */
const skillScenario = (check: string) => `name: argchk
agent: agent.yaml
skills: {overlay: [skills/beta], delivery: on_demand}
inputs: {messages: [{role: user, content: hi}]}
model: {script: [{tool_calls: [{name: load_skill, args: {name: beta}}]}, {text: ok}]}
expect:
  checks:
    - ${check}
`;

/** A scenario calling load_skill without saying how skills are delivered (inline, the default). */
const LOAD_SKILL_SCENARIO = `name: calls load_skill
agent: agent.yaml
inputs: {messages: [{role: user, content: hi}]}
model: {script: [{tool_calls: [{name: load_skill, args: {name: beta}}]}, {text: done}]}
expect: {terminal_tool: load_skill}
`;
const LOAD_SKILL_WHY =
  '"load_skill" is offered only when skills are delivered on demand (skills.delivery: on_demand) and the run has a skill the model may load';

/** A build whose only skill the model may not load (disable_model_invocation). */
const NO_LOADABLE_SKILL_AGENT = `id: t7
agent: {name: T7, tools: [{name: finish, description: f, returns: {ok: true}}],
  skills: [{name: release, description: R., disable_model_invocation: true, body: b}]}
`;

// Scenarios validate and run refuse at load, each for a reason of its own, in one folder: one
// `validate` and one `run` over them serve the tests below that name these files. Each test reads
// its own file's messages (its file name is in them; linesAbout picks its lines) and counts them
// where it counted the problems of a validate of its own. A run refused at load runs none of its
// scenarios, so its exit 2 with a file's messages says that file was refused. every-invalid/ is
// given as a folder, the others by name.
const REFUSED_AT_LOAD = sharedDir({
  'agent.yaml': AGENT_YAML,
  'every-invalid/agent.yaml': AGENT_YAML,
  'every-invalid/broken-agent.yaml': 'id: broken\nagent:\n  name: B\n  max_turns: -1\n',
  'every-invalid/a.scenario.yaml': passingScenario('ok'),
  'every-invalid/b.scenario.yaml': 'name: b\nagent: nowhere.yaml\ninputs: {messages: [{role: user, content: go}]}\n',
  'not-json.scenario.json': '{"name": "j", agent: "agent.yaml"}',
  'bad.yaml': 'name: b\nagent: agent.yaml\ninputs: {mesages: [{role: user, content: go}]}\n',
  'skills/beta/SKILL.md': BETA_SKILL,
  'no-loadable-skill-agent.yaml': NO_LOADABLE_SKILL_AGENT,
  'typos.scenario.yaml': TYPOS_SCENARIO,
  'empty-lists.scenario.yaml': EMPTY_LISTS_SCENARIO,
  'span-values.scenario.yaml': SPAN_VALUES_SCENARIO,
  'misspelt-skill-arg.scenario.yaml': skillScenario('tool_not_called: {tool: load_skill, args: {nam: beta}}'),
  'inline-load-skill.scenario.yaml': LOAD_SKILL_SCENARIO,
  'no-loadable-skill.scenario.yaml': LOAD_SKILL_SCENARIO.replace('agent: agent.yaml', 'agent: no-loadable-skill-agent.yaml').replace(
    'model:',
    'skills: {delivery: on_demand}\nmodel:',
  ),
  'lazy-delivery.scenario.yaml': LOAD_SKILL_SCENARIO.replace('model:', 'skills: {delivery: lazy}\nmodel:'),
});
const validateRefused = once(() =>
  runCli(
    [
      'validate',
      'every-invalid',
      'typos.scenario.yaml',
      'not-json.scenario.json',
      'bad.yaml',
      'empty-lists.scenario.yaml',
      'span-values.scenario.yaml',
      'misspelt-skill-arg.scenario.yaml',
      'inline-load-skill.scenario.yaml',
      'no-loadable-skill.scenario.yaml',
      'lazy-delivery.scenario.yaml',
    ],
    REFUSED_AT_LOAD,
  ),
);
const runRefused = once(() =>
  runCli(
    [
      'run',
      'typos.scenario.yaml',
      'empty-lists.scenario.yaml',
      'misspelt-skill-arg.scenario.yaml',
      'inline-load-skill.scenario.yaml',
      'no-loadable-skill.scenario.yaml',
      '--out',
      'out',
    ],
    REFUSED_AT_LOAD,
  ),
);

/** A scenario name 20,000 characters long, for the table's width. */
const LONG_NAME = 'n'.repeat(20_000);

// Scenarios that validate and pass, each for a test of its own, in one folder: one `validate` and one
// `run` of the files named (both exit 0) serve the tests below; each reads its own file's row. The
// run's out/spans.jsonl and out/report.json are also what the spans query test queries and what the
// compare and merge bad-input test makes its bad reports from.
const PASSING = sharedDir({
  'agent.yaml': AGENT_YAML,
  'skills/beta/SKILL.md': BETA_SKILL,
  'x.yaml': passingScenario('x'),
  'multi.yaml': `scenarios:\n  - ${passingScenario('m').replace(/\n(?=.)/g, '\n    ')}`,
  'strict-no-calls.scenario.yaml': vacuousScenario('    - tool_sequence: {calls: []}\n'),
  'real-skill-arg.scenario.yaml': skillScenario('tool_called: {tool: load_skill, args: {name: beta}}'),
  'long-name.scenario.yaml': passingScenario(LONG_NAME),
});
const validatePassing = once(() => runCli(['validate', 'x.yaml', 'multi.yaml', 'agent.yaml', 'real-skill-arg.scenario.yaml'], PASSING));
const runPassing = once(() =>
  runCli(
    [
      'run',
      'x.yaml',
      'multi.yaml',
      'strict-no-calls.scenario.yaml',
      'real-skill-arg.scenario.yaml',
      'long-name.scenario.yaml',
      '--out',
      'out',
      '--reporter',
      'table,json',
    ],
    PASSING,
  ),
);
/** The status of each row of the passing run whose id starts with `file#`. */
async function passingStatuses(file: string): Promise<string[]> {
  const run = await runPassing();
  expect(run.exitCode, run.all.slice(0, 2000)).toBe(0);
  const report = JSON.parse(readFileSync(join(PASSING, 'out/report.json'), 'utf8')) as { scenarios: Array<{ id: string; status: string }> };
  return report.scenarios.filter((row) => row.id.startsWith(`${file}#`)).map((row) => row.status);
}

describe('agentcheck test-run', () => {
  it('prints only the TestRunResult JSON with --json and exits 0 on pass', async () => {
    const dir = tempDir({ 'agent.yaml': AGENT_YAML, 'script.yaml': SCRIPT });
    const before = readFileSync(join(dir, 'agent.yaml'), 'utf8');
    writeFileSync(join(dir, 'delta.yaml'), 'set: {agent: {max_turns: 5}}\nremove: ["agent.tools[name=lookup].read_only"]\n');
    const result = await runCli(
      ['test-run', '--agent', 'agent.yaml', '--message', 'go', '--script', 'script.yaml', '--delta', 'delta.yaml', '--terminal-tool', 'finish', '--json'],
      dir,
    );
    expect(result.exitCode, result.stderr).toBe(0);
    const parsed = JSON.parse(result.stdout);
    expect(Object.keys(parsed).sort()).toEqual(['approvals', 'output', 'resolved', 'stop_reason', 'tools', 'trace_id', 'verdict', 'verdict_reason'].sort());
    expect(parsed).toMatchObject({
      output: 'all done',
      verdict: 'pass',
      stop_reason: 'end_turn',
      tools: [
        { name: 'lookup', called: 1, returned: 1, errors: 0 },
        { name: 'finish', called: 1, returned: 1, errors: 0 },
      ],
      resolved: { max_turns: 5, provider: 'scripted', revision_id: 'e2e-bot' },
    });
    expect(parsed.resolved.delta_hash).toMatch(/^[0-9a-f]{16}$/);
    expect(parsed.trace_id).toMatch(/^[0-9a-f]{32}$/);
    expect(readFileSync(join(dir, 'agent.yaml'), 'utf8')).toBe(before);
  });

  it('exits 1 for a verdict other than pass and prints a readable summary', async () => {
    const dir = tempDir({ 'agent.yaml': AGENT_YAML, 'script.yaml': '- tool_calls: [{name: lookup, args: {id: "1"}}]\n- text: stopped\n' });
    const result = await runCli(['test-run', '--agent', 'agent.yaml', '--message', 'go', '--script', 'script.yaml', '--terminal-tool', 'finish'], dir);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain('verdict: INCOMPLETE');
    expect(result.stdout).toContain('lookup: called 1, returned 1, errors 0');
  });

  it('exits 2 for invalid input, naming the file', async () => {
    const dir = tempDir({ 'agent.yaml': AGENT_YAML, 'script.yaml': '- tool_cals: []\n' });
    const bad = await runCli(['test-run', '--agent', 'agent.yaml', '--message', 'go', '--script', 'script.yaml', '--json'], dir);
    expect(bad.exitCode).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(/script\.yaml:1:3 at \[0\]\.tool_cals: unknown key "tool_cals"/);
    // The built CLI refused the bad script above; these two refusals run its entry in-process (runMain).
    expect((await runMain(['test-run', '--agent', 'missing.yaml', '--message', 'go'], dir)).exitCode).toBe(2);
    expect((await runMain(['test-run', '--agent', 'agent.yaml'], dir)).exitCode).toBe(2);
  });

  it('reports an exhausted script as a failed verdict, never a pass', async () => {
    const dir = tempDir({ 'agent.yaml': AGENT_YAML, 'script.yaml': '- tool_calls: [{name: finish, args: {}}]\n' });
    // In-process (runMain): the built CLI's exit 1 for a failed verdict is the test above's.
    const result = await runMain(
      ['test-run', '--agent', 'agent.yaml', '--message', 'go', '--script', 'script.yaml', '--terminal-tool', 'finish', '--json'],
      dir,
    );
    expect(result.exitCode).toBe(1);
    const parsed = JSON.parse(result.stdout);
    expect(parsed.stop_reason).toBe('error');
    expect(parsed.verdict).toBe('failed');
    expect(parsed.verdict_reason).toMatch(/SCRIPT_EXHAUSTED|script exhausted/);
  });
});

describe('agentcheck validate', () => {
  it('accepts the shipped fixtures and scenarios', async () => {
    // In-process (runMain): the built CLI validates the passing files below.
    const result = await runMain(['validate', 'scenarios', 'fixtures/agents', 'fixtures/skills']);
    expect(result.exitCode, result.all).toBe(0);
    expect(result.stdout).toMatch(/ok: \d+ agent build\(s\), \d+ scenario file\(s\)/);
  });

  it('prints every invalid file with its location and exits 2', async () => {
    // validate of the folder every-invalid/ (two bad files, two good), among the files refused at load.
    const result = await validateRefused();
    expect(result.exitCode).toBe(2);
    const lines = result.stderr.split('\n').filter((line) => line.includes('/every-invalid/'));
    expect(lines).toHaveLength(2);
    expect(lines.join('\n')).toMatch(/every-invalid\/broken-agent\.yaml:4:14 at agent\.max_turns: expected a number >= 1/);
    expect(lines.join('\n')).toMatch(/every-invalid\/b\.scenario\.yaml:2:8 at agent: agent build not found/);
    // The summary counts every problem printed and every file they are in.
    const located = result.stderr.split('\n').filter((line) => /^\S+:\d+:\d+:? /.test(line));
    const files = new Set(located.map((line) => line.slice(0, line.indexOf(':'))));
    expect(result.stderr.trim().split('\n')).toHaveLength(located.length + 1);
    expect(result.stderr).toContain(`${located.length} problem(s) in ${files.size} file(s)`);
  });

  it('takes a file named on the command line for what run takes it for, whatever its name', async () => {
    // validate and run of x.yaml and multi.yaml (and agent.yaml), among the passing files; the
    // validate's one other scenario file is real-skill-arg.scenario.yaml.
    const ok = await validatePassing();
    expect(ok.exitCode, ok.all).toBe(0);
    expect(ok.stdout).toContain('ok: 1 agent build(s), 3 scenario file(s) with 3 scenario(s)');
    expect(await passingStatuses('x.yaml')).toEqual(['pass']);
    expect(await passingStatuses('multi.yaml')).toEqual(['pass']);
    // A scenario with a typo is told about the typo, not that it lacks an agent build's id.
    // validate of bad.yaml, named among the files refused at load: its one problem.
    const bad = await validateRefused();
    expect(bad.exitCode).toBe(2);
    const own = linesAbout(bad.stderr, 'bad.yaml');
    expect(own.split('\n')).toHaveLength(1);
    expect(own).toMatch(/bad\.yaml:3:10 at inputs\.mesages: unknown key "mesages" \(did you mean "messages"\?\)/);
    expect(own).not.toContain('"id"');
  });
});

describe('agentcheck validate and run refuse a test that could only pass vacuously', () => {
  it('a misspelt tool, argument and script call are all reported in one pass with suggestions, exit 2', async () => {
    // validate of typos.scenario.yaml and not-json.scenario.json, among the files refused at load: 3 problems and 1.
    const result = await validateRefused();
    expect(result.exitCode).toBe(2);
    const typos = linesAbout(result.stderr, 'typos.scenario.yaml');
    expect(typos.split('\n')).toHaveLength(3);
    expect(typos).toMatch(/typos\.scenario\.yaml:7:\d+ at model\.script\[1\]\.tool_calls\[0\]\.name: the script calls "finsh".*did you mean "finish"\?/);
    expect(typos).toMatch(/typos\.scenario\.yaml:12:\d+ at expect\.checks\[0\]\.tool_not_called\.tool: .*did you mean "lookup"\?/);
    expect(typos).toMatch(
      /at expect\.checks\[1\]\.tool_called\.args\.di: argument "di" is not a parameter of lookup; expected one of: id; did you mean "id"\?/,
    );
    const notJson = linesAbout(result.stderr, 'not-json.scenario.json');
    expect(notJson.split('\n')).toHaveLength(1);
    expect(notJson).toMatch(/not-json\.scenario\.json:1:\d+: is not valid JSON/);
    // The run of the same scenario (typos.scenario.yaml in the folder refused at load).
    const run = await runRefused();
    expect(run.exitCode).toBe(2);
    expect(linesAbout(run.stderr, 'typos.scenario.yaml')).toContain('did you mean "finish"?');
  });
  it('an empty list of texts or calls that every run holds is refused at its key; calls: [] in strict mode runs', async () => {
    // validate and run of empty-lists.scenario.yaml, in the folder refused at load.
    for (const result of [await validateRefused(), await runRefused()]) {
      expect(result.exitCode, result.stderr).toBe(2);
      expect(result.stderr).toMatch(/empty-lists\.scenario\.yaml:7:\d+ at expect\.checks\[0\]\.output\.contains: expected at least 1 item\(s\)\n/);
      expect(result.stderr).toMatch(/empty-lists\.scenario\.yaml:8:\d+ at expect\.checks\[1\]\.output\.not_contains: expected at least 1 item\(s\)\n/);
      for (const [line, mode] of [
        [9, 'superset'],
        [10, 'in_order'],
      ] as const) {
        expect(result.stderr).toMatch(
          new RegExp(
            `empty-lists\\.scenario\\.yaml:${line}:\\d+ at expect\\.checks\\[${line - 7}\\]\\.tool_sequence\\.calls: expected at least 1 item\\(s\\) with mode ${mode}`,
          ),
        );
      }
    }
    // strict (the default) with calls: [] means "no tool calls": it runs and passes on a run without any
    // (strict-no-calls.scenario.yaml, among the passing files).
    expect(await passingStatuses('strict-no-calls.scenario.yaml')).toEqual(['pass']);
  });
});

describe('agentcheck validate refuses a spans check on a value agentcheck never writes', () => {
  it('a misspelt stop reason, operation name, outcome text, source prefix and tool kind are located, with suggestions', async () => {
    // validate of span-values.scenario.yaml, in the folder refused at load.
    const lines = linesAbout((await validateRefused()).stderr, 'span-values.scenario.yaml').split('\n');
    expect(lines).toHaveLength(5);
    for (const [index, said] of [
      [0, '"agentcheck.stop_reason" is one of end_turn,'],
      [1, '"gen_ai.operation.name" is one of invoke_agent,'],
      [2, '"agentcheck.tool.is_error" is a boolean when agentcheck writes it, so this condition could never match: got "true"'],
      [3, '"agentcheck.tool.source" is one of model, plan, chain, flow when agentcheck writes it, and none of them starts with "modle"'],
      [4, '"agentcheck.tool.kind" is one of builtin,'],
    ] as const) {
      const line = lines.find((text) => text.includes(`span-values.scenario.yaml:${7 + index}:`));
      expect(line, said).toContain(`at expect.checks[${index}].spans.query.filtering.value: attribute ${said}`);
    }
    const all = lines.join('\n');
    expect(all).toContain('did you mean "end_turn"?');
    expect(all).toContain('did you mean "execute_tool"?');
    expect(all).toContain('did you mean "builtin"?');
  });
});

describe('agentcheck validate and run hold load_skill checks to its parameters', () => {
  it('a misspelt load_skill argument is a located error, not a vacuous pass', async () => {
    // validate and run of misspelt-skill-arg.scenario.yaml, in the folder refused at load.
    const located =
      /misspelt-skill-arg\.scenario\.yaml:8:\d+ at expect\.checks\[0\]\.tool_not_called\.args\.nam: argument "nam" is not a parameter of load_skill; expected one of: name; did you mean "name"\?/;
    const validate = await validateRefused();
    expect(validate.exitCode).toBe(2);
    expect(validate.stderr).toMatch(located);
    const run = await runRefused();
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(located);
  });

  it('a check with the real argument name validates and passes', async () => {
    // validate and run of real-skill-arg.scenario.yaml, among the passing files (both exit 0).
    const validate = await validatePassing();
    expect(validate.exitCode, validate.all).toBe(0);
    expect(await passingStatuses('real-skill-arg.scenario.yaml')).toEqual(['pass']);
  });
});

describe('agentcheck validate and run refuse load_skill where no run is offered it', () => {
  const why = LOAD_SKILL_WHY;

  it('inline delivery (the default): a located error before anything runs, not an unknown_tool failure', async () => {
    // validate and run of inline-load-skill.scenario.yaml, in the folder refused at load.
    const validate = await validateRefused();
    expect(validate.exitCode).toBe(2);
    const own = linesAbout(validate.stderr, 'inline-load-skill.scenario.yaml');
    expect(own).toContain(`inline-load-skill.scenario.yaml:4:39 at model.script[0].tool_calls[0].name: ${why}; this scenario's run delivers them inline`);
    expect(own).toContain(`at expect.terminal_tool: ${why}`);
    const run = await runRefused();
    expect(run.exitCode).toBe(2);
    expect(linesAbout(run.stderr, 'inline-load-skill.scenario.yaml')).toContain(why);
  });

  it('on_demand with only skills the model may not load (disable_model_invocation): refused at load, as the run offers no load_skill', async () => {
    // validate and run of no-loadable-skill.scenario.yaml, in the folder refused at load.
    const validate = await validateRefused();
    expect(validate.exitCode, validate.all).toBe(2);
    const none = `${why}; every skill this scenario's run delivers has disable_model_invocation: true (release), so the model may load none`;
    const own = linesAbout(validate.stderr, 'no-loadable-skill.scenario.yaml');
    expect(own).toContain(`at model.script[0].tool_calls[0].name: ${none}`);
    expect(own).toContain(`at expect.terminal_tool: ${none}`);
    const run = await runRefused();
    expect(run.exitCode).toBe(2);
    // Its own lines: another file's message suggests model.allow_unknown_tools.
    const ownRun = linesAbout(run.stderr, 'no-loadable-skill.scenario.yaml');
    expect(ownRun).not.toContain('unknown_tool');
    // Refused at load itself, not only beside the other files of the folder.
    expect(ownRun).toContain(`at model.script[0].tool_calls[0].name: ${none}`);
  });

  it("a misspelt skills.delivery (the config's or the scenario's) is the one problem said: no guess from the default beside it", async () => {
    const dir = tempDir({ 'agent.yaml': AGENT_YAML, 'a.scenario.yaml': LOAD_SKILL_SCENARIO, 'agentcheck.config.yaml': 'skills: {delivery: lazy}\n' });
    const validate = await runMain(['validate', '.'], dir);
    expect(validate.exitCode).toBe(2);
    expect(validate.stderr).toContain('agentcheck.config.yaml:1:20 at skills.delivery: expected one of "inline" | "on_demand", got string "lazy"');
    expect(validate.stderr).not.toContain('load_skill');
    expect(validate.stderr).toContain('1 problem(s)');
    // The scenario's own: validate of lazy-delivery.scenario.yaml, in the folder refused at load.
    const ownValidate = await validateRefused();
    expect(ownValidate.exitCode).toBe(2);
    const own = linesAbout(ownValidate.stderr, 'lazy-delivery.scenario.yaml');
    expect(own).toContain('at skills.delivery: expected one of "inline" | "on_demand", got string "lazy"');
    expect(own).not.toContain('load_skill');
  });

  it('on_demand in the suite config: refused without skills, run with --overlay', async () => {
    const dir = tempDir({
      'agent.yaml': AGENT_YAML,
      'a.scenario.yaml': LOAD_SKILL_SCENARIO,
      'agentcheck.config.yaml': 'skills: {delivery: on_demand}\n',
      'skills/beta/SKILL.md': BETA_SKILL,
    });
    const validate = await runMain(['validate', 'a.scenario.yaml'], dir);
    expect(validate.exitCode).toBe(2);
    expect(validate.stderr).toContain(`${why}; this scenario's run has none`);
    const run = await runMain(['run', 'a.scenario.yaml', '--overlay', 'skills/beta', '--out', 'out'], dir);
    expect(run.exitCode, run.all).toBe(0);
    expect(run.stdout).toContain('1 passed');
    // validate takes the folders run takes, so `validate X && run X` agree.
    const overlaid = await runMain(['validate', 'a.scenario.yaml', '--overlay', 'skills/beta'], dir);
    expect([overlaid.exitCode, overlaid.stderr]).toEqual([0, '']);
  });

  it('validate takes --overlay as run does: a suite needing it validates with it, the refusal names it, and its folders are checked alike (black-box finding)', async () => {
    const scenario = LOAD_SKILL_SCENARIO.replace('agent: agent.yaml', 'agent: no-loadable-skill-agent.yaml').replace(
      'model:',
      'skills: {delivery: on_demand}\nmodel:',
    );
    const dir = tempDir({ 'no-loadable-skill-agent.yaml': NO_LOADABLE_SKILL_AGENT, 'x.scenario.yaml': scenario, 'skills/beta/SKILL.md': BETA_SKILL });
    // In-process (runMain): the built CLI validates and runs the shared folders above.
    const refused = await runMain(['validate', 'x.scenario.yaml'], dir);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(
      `${why}; every skill this scenario's run delivers has disable_model_invocation: true (release), so the model may load none; skill folders given with --overlay count too (validate takes them as run does)`,
    );
    const validate = await runMain(['validate', 'x.scenario.yaml', '--overlay', 'skills/beta'], dir);
    expect(validate.exitCode, validate.all).toBe(0);
    expect(validate.stdout).toBe('agentcheck validate: ok: 1 agent build(s), 1 scenario file(s) with 1 scenario(s), 1 skill(s), 0 config(s)');
    const run = await runMain(['run', 'x.scenario.yaml', '--overlay', 'skills/beta', '--out', 'out'], dir);
    expect(run.exitCode, run.all).toBe(0);
    // A SKILL.md given for its folder: the same check as run's, in the flag's words, nothing else checked.
    const file = join(dir, 'skills', 'beta', 'SKILL.md');
    const said = `agentcheck: invalid input: --overlay: "${file}" is a file; expected a skill folder that holds SKILL.md; give the folder that holds SKILL.md, not the file`;
    for (const command of ['validate', 'run']) {
      const bad = await runMain([command, 'x.scenario.yaml', '--overlay', 'skills/beta/SKILL.md', '--overlay=skills/beta'], dir);
      expect([bad.exitCode, bad.stderr], command).toEqual([2, said]);
    }
  });

  it("validate and run agree when the config's skills.overlay shadows an --overlay skill of the same name (the config's comes first)", async () => {
    const shadow = '---\nname: beta\ndescription: Beta, not for the model.\ndisable_model_invocation: true\n---\nShadow.\n';
    const dir = tempDir({
      'agent.yaml': AGENT_YAML,
      'a.scenario.yaml': LOAD_SKILL_SCENARIO,
      'agentcheck.config.yaml': 'skills: {delivery: on_demand, overlay: [shadow/beta]}\n',
      'shadow/beta/SKILL.md': shadow,
      'skills/beta/SKILL.md': BETA_SKILL,
    });
    const none = `${why}; every skill this scenario's run delivers has disable_model_invocation: true (beta), so the model may load none`;
    const validate = await runMain(['validate', 'a.scenario.yaml', '--overlay', 'skills/beta'], dir);
    expect(validate.exitCode).toBe(2);
    expect(validate.stderr).toContain(none);
    const run = await runMain(['run', 'a.scenario.yaml', '--overlay', 'skills/beta', '--out', 'out'], dir);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain(none);
  });
});

describe('agentcheck spans query and compare', () => {
  // `agentcheck <command> --help` (command '' for `agentcheck --help`), once per command for the help
  // tests below. The program's help on the built CLI, from help.json; the commands' through the CLI's
  // entry in-process (runMain), which renders the text the launcher prints from help.json
  // (cli-bundle.test.ts compares the two for every command).
  const helpOf = oncePerKey<{ exitCode?: number; stdout: string }>(async (command) => (command ? runMain([command, '--help']) : runCli(['--help'])));

  it('queries the spans.jsonl of a run by trace and by attribute', async () => {
    // The run of the passing files (PASSING): x.yaml's row is one passing scenario.
    const out = join(PASSING, 'out');
    expect((await runPassing()).exitCode).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { scenarios: Array<{ id: string; test_run: { trace_id: string } }> };
    const trace = report.scenarios.find((row) => row.id.startsWith('x.yaml#'))!.test_run.trace_id;
    const byTrace = await runCli(['spans', 'query', join(out, 'spans.jsonl'), '--trace', trace]);
    expect(byTrace.exitCode, byTrace.stderr).toBe(0);
    const all = JSON.parse(byTrace.stdout);
    expect(all.count).toBe(6); // root, 3 chats, 2 tool calls
    const where = JSON.stringify({ operator: 'and', conditions: [{ field: 'attributes', key: 'gen_ai.tool.name', operator: 'eq', value: 'finish' }] });
    // The query by trace on the built CLI, the others in-process (runMain): they read the same file,
    // within x.yaml's trace (--trace beside --where), or the whole file for the quoted number below.
    const tools = JSON.parse((await runMain(['spans', 'query', join(out, 'spans.jsonl'), '--trace', trace, '--where', where])).stdout);
    expect(tools.count).toBe(1);
    expect(tools.spans[0].name).toBe('execute_tool finish');
    const whole = JSON.stringify({
      filtering: { conditions: [{ field: 'name', operator: 'startswith', value: 'chat' }] },
      windowing: { limit: 2, order: 'desc' },
    });
    const windowed = JSON.parse((await runMain(['spans', 'query', join(out, 'spans.jsonl'), '--trace', trace, '--where', whole])).stdout);
    expect(windowed.count).toBe(3);
    expect(windowed.spans).toHaveLength(2);
    expect(windowed.spans[0].start_ms).toBeGreaterThanOrEqual(windowed.spans[1].start_ms);
    // A quoted number orders as the number does (the turn index of chat and tool spans, a number in
    // spans.jsonl): "0" selects the spans of the file whose turn is above 0.
    const quotedZero = JSON.parse(
      (await runMain(['spans', 'query', join(out, 'spans.jsonl'), '--where', '{"field":"attributes","key":"agentcheck.turn","operator":"gt","value":"0"}']))
        .stdout,
    ).count;
    const turns = readFileSync(join(out, 'spans.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { attributes: Record<string, unknown> }).attributes['agentcheck.turn']);
    expect(turns.filter((turn) => typeof turn === 'number').length).toBeGreaterThan(quotedZero);
    expect(quotedZero).toBe(turns.filter((turn) => typeof turn === 'number' && turn > 0).length);
    expect(quotedZero).toBeGreaterThan(0);
    const bad = await runMain(['spans', 'query', join(out, 'spans.jsonl'), '--where', '{"conditions":[{"field":"nope","operator":"is","value":1}]}']);
    expect(bad.exitCode).toBe(2);
  });

  it('compares two reports and exits 1 on a regression', async () => {
    const dir = tempDir({ 'agent.yaml': AGENT_YAML, 'a.scenario.yaml': passingScenario('a'), 'b.scenario.yaml': passingScenario('b') });
    // The base in-process (runMain); the head (exit 1) and the comparisons on the built CLI.
    expect((await runMain(['run', '.', '--out', 'base', '--reporter', 'json'], dir)).exitCode).toBe(0);
    // A real regression: the agent never calls lookup with id 2 (a misspelt tool would be refused at load).
    writeFileSync(
      join(dir, 'b.scenario.yaml'),
      passingScenario('b').replace('tool_called: {tool: lookup, args: {id: "1"}}', 'tool_called: {tool: lookup, args: {id: "2"}}'),
    );
    writeFileSync(join(dir, 'c.scenario.yaml'), passingScenario('c'));
    expect((await runCli(['run', '.', '--out', 'head', '--reporter', 'json'], dir)).exitCode).toBe(1);
    const result = await runCli(['compare', 'base/report.json', 'head/report.json'], dir);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain('regressed (1):\n  b.scenario.yaml#b [base]: pass -> fail');
    expect(result.stdout).toContain('appeared (1)');
    expect(result.stdout).toContain('1 regressed, 0 improved, 1 appeared, 0 vanished, 1 unchanged');
    expect((await runCli(['compare', 'base/report.json', 'base/report.json'], dir)).exitCode).toBe(0);
  });

  it('prints help with examples for every command', async () => {
    for (const command of ['run', 'test-run', 'validate', 'compare']) {
      const result = await helpOf(command);
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toContain('Examples:');
    }
  });

  it('--help gives the defaults docs/cli.md documents', async () => {
    const run = (await helpOf('run')).stdout.replace(/\s+/g, ' ');
    expect(run).toContain("--out <dir> output folder for reports and spans.jsonl (default: the config's out, else reports)");
    expect(run).toContain("(docs/cassettes.md; default: the config's cassettes.mode, else off)");
    expect(run).toContain('failed or errored in this report.json, or that an interrupt left not_run');
    const validate = (await helpOf('validate')).stdout.replace(/\s+/g, ' ');
    expect(validate).toContain('(default: the agentcheck.config.yaml, .yml or .json of the current folder)');
  });

  it("README's Commands block lists every command agentcheck --help lists", async () => {
    const help = (await helpOf('')).stdout;
    const commands = [...help.slice(help.indexOf('Commands:')).matchAll(/^ {2}([a-z-]+)/gm)].map((match) => match[1]!).filter((name) => name !== 'help');
    const readme = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');
    const block = readme.slice(readme.indexOf('## Commands'), readme.indexOf('## Documentation'));
    expect(commands.length).toBeGreaterThan(5);
    expect(commands.filter((name) => !block.includes(`agentcheck ${name}`))).toEqual([]);
  });

  it('gives the same help for every way of asking, and says an unknown command is one (docs/cli.md)', async () => {
    // spans query's help on the built CLI both ways, from help.json and rendered by the CLI (the
    // word help first); the other ways through the CLI's entry in-process (runMain), which is what
    // the launcher runs for them.
    const text = async (args: string[], run: typeof runMain | typeof runCli = runMain) => {
      const result = await run(args);
      return [result.exitCode, result.stdout];
    };
    const spansQuery = await text(['spans', 'query', '--help'], runCli);
    expect(spansQuery[1]).toContain('Usage: agentcheck spans query');
    expect(await text(['help', 'spans', 'query'], runCli)).toEqual(spansQuery);
    expect(await text(['spans', 'help', 'query'])).toEqual(spansQuery);
    // run's and agentcheck's own help: what the tests above read.
    const asked = async (command: string) => {
      const result = await helpOf(command);
      return [result.exitCode, result.stdout];
    };
    const run = await asked('run');
    // An option value the command would refuse does not hide its help; an argument after `--` is no flag.
    expect(await text(['run', 'scenarios/', '--repeat', '0', '-h'])).toEqual(run);
    expect(await text(['help', 'help'])).toEqual(await asked(''));
    // A word after a command without subcommands is ignored: `help run` never runs anything.
    expect(await text(['help', 'run', 'scenarios/'])).toEqual(run);
    // An unknown command is refused by main(), as no help is asked for: `agentcheck nope` on the
    // built CLI, the other two in-process (runMain).
    const spansNope = await runMain(['spans', 'help', 'nope']);
    expect([spansNope.exitCode, spansNope.stderr]).toEqual([2, "error: unknown command 'nope'\n(add --help to the command for its usage)"]);
    for (const args of [['help', 'nope'], ['nope']]) {
      const unknown = await (args[0] === 'nope' ? runCli : runMain)(args);
      expect([unknown.exitCode, unknown.stdout, unknown.stderr]).toEqual([2, '', "error: unknown command 'nope'\n(add --help to the command for its usage)"]);
    }
    const afterDashes = await runCli(['validate', '--', '--help']);
    expect(afterDashes.exitCode).toBe(2);
    expect(afterDashes.stderr).toContain('--help');
  });

  it('merge --help says --out is required', async () => {
    const help = (await helpOf('merge')).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('--out <dir> output folder for the merged reports and spans.jsonl (required)');
  });

  it("run --help says which suite config is used as docs/cli.md does: a folder argument's own, else the current folder's", async () => {
    const help = (await helpOf('run')).stdout.replace(/\s+/g, ' ');
    expect(help).toContain(
      '--config <file> suite config (default: the agentcheck.config.yaml of a single folder argument that has one, else of the current folder)',
    );
  });
});

describe('bad input to compare, merge, spans query and validate (built CLI)', () => {
  const noCrash = (text: string) => expect(text).not.toMatch(/unexpected error|TypeError|\n\s+at /);

  it('compare refuses a null row, and merge an invalid status or an interrupted shard, without a stack trace', async () => {
    // The report of the passing run (PASSING); the reports made from it are this test's own.
    expect((await runPassing()).exitCode).toBe(0);
    const base = join(PASSING, 'out/report.json');
    const dir = tempDir();
    const report = JSON.parse(readFileSync(base, 'utf8'));
    writeFileSync(join(dir, 'null-row.json'), JSON.stringify({ ...report, scenarios: [null] }, null, 2));
    const compared = await runCli(['compare', base, 'null-row.json'], dir);
    expect(compared.exitCode, compared.all).toBe(2);
    expect(compared.stderr).toMatch(/null-row\.json:\d+:\d+ at scenarios\[0\]: expected a scenario row/);
    noCrash(compared.stderr);

    writeFileSync(join(dir, 'bogus.json'), JSON.stringify({ ...report, scenarios: [{ ...report.scenarios[0], status: 'bogus' }] }, null, 2));
    const bogus = await runCli(['merge', 'bogus.json', '--out', 'merged'], dir);
    expect(bogus.exitCode).toBe(2);
    expect(bogus.stderr).toMatch(/bogus\.json:\d+:\d+ at scenarios\[0\]: expected status to be one of pass, fail, error, not_run, skipped, got "bogus"/);

    writeFileSync(join(dir, 'stopped.json'), JSON.stringify({ ...report, interrupted: true }));
    const stopped = await runCli(['merge', 'stopped.json', '--out', 'merged', '--reporter', 'json'], dir);
    expect(stopped.exitCode).toBe(1);
    expect(stopped.stderr).toContain('interrupted: stopped.json');
  });

  it('spans query refuses --where null and a folder; validate refuses a folder with no agentcheck files', async () => {
    const dir = tempDir({ 'spans.jsonl': '' });
    const nullWhere = await runCli(['spans', 'query', 'spans.jsonl', '--where', 'null'], dir);
    expect(nullWhere.exitCode).toBe(2);
    expect(nullWhere.stderr).toContain('--where: expected a JSON object');
    const folder = await runMain(['spans', 'query', '.'], dir);
    expect(folder.exitCode).toBe(2);
    expect(folder.stderr).toContain('is a folder; expected a spans.jsonl file');
    noCrash(folder.stderr);
    const empty = await runMain(['validate', '.'], dir);
    expect(empty.exitCode).toBe(2);
    expect(empty.stderr).toContain('no agentcheck files found under . (agent builds, *.scenario(s).yaml, SKILL.md, agentcheck.config.yaml)');
    // A missing path is named as it was given, absolute or relative, and does not hide the problems
    // of the paths that exist.
    writeFileSync(join(dir, 'bad-build.yaml'), 'id: x\nagent:\n  name: X\n  max_turns: 0\n');
    const missing = await runMain(['validate', '/no/such/agentcheck-path', 'bad-build.yaml', 'nonexistent.yaml'], dir);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('/no/such/agentcheck-path: path not found');
    expect(missing.stderr).not.toContain('../');
    expect(missing.stderr).toContain('bad-build.yaml:4:14 at agent.max_turns: expected a number >= 1');
    expect(missing.stderr).toMatch(/^nonexistent\.yaml: path not found/m);
    expect(missing.stderr).toContain('agentcheck validate: 3 problem(s) in 3 file(s)');
    // Several names after one --variant (docs/cli.md): a second name is a variant, not a path.
    const variants = await runMain(['run', '--variant', 'base', 'lean'], dir);
    expect(variants.exitCode).toBe(2);
    expect(variants.stderr).toContain('unknown variant "lean"; expected one of: base');
    // A name written after a path reads as a path: the message says where names go.
    const afterPath = await runMain(['run', '.', 'lean'], dir);
    expect(afterPath.exitCode).toBe(2);
    expect(afterPath.stderr).toContain(
      'lean: path not found: expected a scenario file or a folder of *.scenario.yaml files (if "lean" is a variant or tag name: write the names right after --variant or --tag, before the paths, or join them with commas, as in --tag smoke,lean)',
    );
  });

  it('an empty path argument (an unset variable) is refused by every command, never read as the current folder', async () => {
    const dir = tempDir({ 'agent.yaml': AGENT_YAML, 'a.scenario.yaml': passingScenario('a'), 'spans.jsonl': '' });
    // init's case on the built CLI; the other commands' in-process (runMain), as the built CLI
    // refuses bad input to each of them in the tests above.
    const refused = async (args: string[], expected: string, inProcess = false) => {
      const result = inProcess ? await runMain(args, dir) : await runCli(args, dir);
      expect(result.exitCode, `${args.join(' ')}: ${result.all}`).toBe(2);
      expect(result.stderr).toContain(`is invalid for argument`);
      expect(result.stderr).toContain(`expected ${expected}, got an empty string (an unset variable?)`);
      noCrash(result.stderr);
    };
    await refused(['run', ''], 'a scenario file or folder', true);
    // Beside a real path too: `run "$SUITE" a.scenario.yaml` must not run the whole folder.
    await refused(['run', '', 'a.scenario.yaml', '--out', 'out'], 'a scenario file or folder', true);
    await refused(['run', 'a.scenario.yaml', ' ', '--out', 'out'], 'a scenario file or folder', true);
    await refused(['validate', ''], 'a file or folder', true);
    await refused(['init', ''], 'a folder');
    await refused(['spans', 'query', ''], 'a spans.jsonl file', true);
    await refused(['compare', '', 'x.json'], 'a report.json file', true);
    await refused(['compare', 'x.json', ''], 'a report.json file', true);
    await refused(['merge', '', '--out', 'merged'], 'a report.json file', true);
    // Nothing ran and nothing was written: no report, no starter files.
    expect(readdirSync(dir).sort()).toEqual(['a.scenario.yaml', 'agent.yaml', 'spans.jsonl']);
  });

  it('keeps the terminal table narrow for a very long scenario name', async () => {
    // The run of long-name.scenario.yaml, among the passing files (table and json reporters).
    const result = await runPassing();
    expect(result.exitCode, result.stderr.slice(0, 500)).toBe(0);
    expect(Math.max(...result.stdout.split('\n').map((line) => line.length))).toBeLessThan(400);
    const rows = JSON.parse(readFileSync(join(PASSING, 'out/report.json'), 'utf8')).scenarios as Array<{ id: string; name: string }>;
    expect(rows.find((row) => row.id.startsWith('long-name.scenario.yaml#'))?.name).toBe(LONG_NAME);
  });
});
