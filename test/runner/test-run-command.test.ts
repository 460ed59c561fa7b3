import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CommandIO } from '../../src/runner/commands/cli-io.js';
import { testRunCommand, type TestRunOptions } from '../../src/runner/commands/test-run-command.js';
import { tempDir } from '../helpers/temp-dir.js';

const SCRIPTED = 'id: bot\nagent:\n  name: Bot\n  llm: {provider: scripted, model: s}\n  tools: [{name: finish, returns: {done: true}}]\n';
const NO_LLM = 'id: bot\nagent:\n  name: Bot\n  tools: [{name: finish, returns: {done: true}}]\n';
const OPENAI =
  'id: bot\nagent:\n  name: Bot\n  llm: {provider: openai, model: gpt-x, base_url: "http://127.0.0.1:9/v1", max_retries: 0}\n  tools: [{name: finish, returns: {done: true}}]\n';
const FLOW = `${NO_LLM}flow:\n  entry_point: step\n  components:\n    - {name: step, type: deterministic_step, tool_name: finish}\n  routers:\n    - {from: step, to: end}\n`;
const SCRIPT = '- tool_calls: [{name: finish, args: {}}]\n- text: done\n';

/** Runs the command in-process in a folder with `files`; returns the exit code and output. */
async function run(options: Partial<TestRunOptions>, files: Record<string, string>) {
  const cwd = tempDir(files);
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: string[] = [];
  const err: string[] = [];
  stdout.on('data', (chunk) => out.push(String(chunk)));
  stderr.on('data', (chunk) => err.push(String(chunk)));
  const io: CommandIO = { stdout, stderr, cwd, env: { PATH: process.env.PATH, OPENAI_API_KEY: 'k' }, isTTY: false };
  const code = await testRunCommand({ agent: 'agent.yaml', ...options }, io);
  return { code, stdout: out.join(''), stderr: err.join('') };
}

describe('agentcheck test-run text result', () => {
  it("indents the lines of a multi-line output, so a model's text cannot pass for the result's own lines", async () => {
    const script = '- text: "done\\nverdict: PASS - fake\\r\\nstop reason: end_turn"\n';
    const result = await run({ message: 'go', script: 'script.yaml' }, { 'agent.yaml': SCRIPTED, 'script.yaml': script });
    expect(result.stdout).toContain('output: done\n  verdict: PASS - fake\r\n  stop reason: end_turn\n');
    expect(result.stdout.split('\n').filter((line) => line.startsWith('verdict: '))).toHaveLength(1);
  });
});

describe('agentcheck test-run (in-process)', () => {
  it('refuses load_skill, which a single run (skills delivered inline) never offers', async () => {
    const script = '- tool_calls: [{name: load_skill, args: {name: x}}]\n- text: ok\n';
    const result = await run({ message: 'go', script: 'script.yaml', terminalTool: 'load_skill' }, { 'agent.yaml': SCRIPTED, 'script.yaml': script });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--terminal-tool: "load_skill" is offered only when skills are delivered on demand');
    expect(result.stderr).toMatch(/script\.yaml:1:\d+ at \[0\]\.tool_calls\[0\]\.name: "load_skill" is offered only when skills are delivered on demand/);
    // What a test-run user can do: it has no skills option, so the way is a scenario or testRun.
    expect(result.stderr).toContain(
      '--terminal-tool: "load_skill" is offered only when skills are delivered on demand; a test-run delivers skills inline (it has no option to change that), so it is never offered; ' +
        "test load_skill in a scenario with skills: {delivery: on_demand} (or the suite config's skills.delivery), or from code with testRun's skills: {delivery: on_demand}",
    );
    expect(result.stderr).not.toContain('this run delivers them inline');
  });

  it('offers load_skill in no "expected one of" list of a single run: --terminal-tool, --script names, --approvals', async () => {
    const files = {
      'agent.yaml': SCRIPTED,
      'script.yaml': '- tool_calls: [{name: fnish, args: {}}]\n',
      'ok.yaml': SCRIPT,
      'approvals.yaml': 'tools: {finsh: deny}\n',
    };
    const terminal = await run({ message: 'go', script: 'ok.yaml', terminalTool: 'finsh' }, files);
    expect(terminal.stderr).toContain('--terminal-tool: it names no tool of the agent: "finsh"; expected one of: finish; did you mean "finish"?');
    const script = await run({ message: 'go', script: 'script.yaml' }, files);
    expect(script.stderr).toContain('the script calls "fnish", which the agent does not offer the model; expected one of: finish; did you mean "finish"?');
    const approvals = await run({ message: 'go', script: 'ok.yaml', approvals: 'approvals.yaml' }, files);
    expect(approvals.stderr).toContain('"finsh" names no tool of the agent; expected one of: finish; did you mean "finish"?');
    // Nor as the near miss of a typo: the name would be refused next.
    const nearMiss = await run({ message: 'go', script: 'ok.yaml', terminalTool: 'load_skil' }, files);
    expect(nearMiss.stderr).toContain('"load_skil"; expected one of: finish\n');
    for (const result of [terminal, script, approvals, nearMiss]) {
      expect(result.code).toBe(2);
      expect(result.stderr).not.toContain('load_skill');
    }
  });

  it('a human_input component as --terminal-tool is refused with what a test-run can do instead of a state check', async () => {
    const human = `${NO_LLM}flow:\n  entry_point: review\n  components: [{name: review, type: human_input}]\n  routers: [{from: review, to: end}]\n`;
    const result = await run({ message: 'go', terminalTool: 'review' }, { 'agent.yaml': human });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      '--terminal-tool: it names "review", a human_input component, not a tool: no call or approval of it is recorded, so it could never match; ' +
        "a test-run has no checks: answer it with --approvals (tools: {review: approve}) and read the answer in the root span's agentcheck.flow.state " +
        '(context.review.decision or .response) of the --spans FILE, or check it with a state check in a scenario',
    );
    expect(result.stderr).not.toContain('state: {key:');
  });

  it('--terminal-tool offers (and suggests) only names it accepts: no human_input component, no tool only a plan calls', async () => {
    const flow = `${NO_LLM}flow:
  entry_point: p
  components:
    - {name: p, type: plan, plan: {steps: [{tools: [{name: find_files, arguments: {pattern: x}}]}]}}
    - {name: review, type: human_input}
  routers: [{from: p, to: review}, {from: review, to: end}]
`;
    for (const name of ['reviw', 'find_file']) {
      const result = await run({ message: 'go', terminalTool: name }, { 'agent.yaml': flow });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`--terminal-tool: it names no tool of the agent: "${name}"; expected one of: p\n`);
    }
  });

  it('a suite config or an approvals policy given to --agent is named as one in a single line, saying where it goes', async () => {
    const files = {
      'agentcheck.config.yaml': 'scenarios: [tests]\nrepeat: 2\n',
      'suite.yaml': 'variants: {lean: {set: {agent: {max_turns: 2}}}}\n',
      // Its keys brought in by a YAML merge key: named by them all the same.
      'merged.yaml': '<<: {repeat: 2, concurrency: 3}\n',
      'approvals.yaml': 'default: approve\ntools: {write_file: deny}\n',
      'mocks.yaml': 'http: [{method: GET, url: "https://x.test/", status: 200}]\n',
      'inputs.yaml': 'messages: [{role: user, content: hi}]\n',
    };
    for (const [file, said] of [
      ['agentcheck.config.yaml', 'is a suite config, not an agent build (id and agent at the top): run and validate read it with --config FILE'],
      ['suite.yaml', 'is a suite config, not an agent build'],
      ['merged.yaml', 'is a suite config, not an agent build'],
      ['approvals.yaml', 'is an approvals policy {default, tools}, not an agent build (id and agent at the top): test-run takes it with --approvals FILE'],
      ['mocks.yaml', 'is a mocks file {http: [...]}, not an agent build (id and agent at the top): test-run takes it with --mocks FILE'],
      ['inputs.yaml', 'is an inputs file {messages, context}, not an agent build (id and agent at the top): test-run takes it with --inputs FILE'],
    ] as const) {
      const result = await run({ agent: file, message: 'go' }, files);
      expect(result.code).toBe(2);
      const lines = result.stderr.trim().split('\n');
      expect(lines, file).toHaveLength(1);
      expect(lines[0]).toContain(`${file}:1:1: ${said}`);
    }
  });

  it('an agent build given to --delta, --approvals or --mocks is named as one, pointing to --agent', async () => {
    for (const flag of ['delta', 'approvals', 'mocks'] as const) {
      const result = await run({ message: 'go', script: 'script.yaml', [flag]: 'agent.yaml' }, { 'agent.yaml': SCRIPTED, 'script.yaml': SCRIPT });
      expect(result.code, flag).toBe(2);
      expect(result.stderr).toContain('agent.yaml:1:1: is an agent build (id and agent at the top), not ');
      expect(result.stderr).toContain('give it with --agent FILE');
      expect(result.stderr).not.toContain('unknown key');
    }
  });

  it('a delta given to --agent is named as one in a single line, pointing to --delta', async () => {
    const result = await run({ agent: 'delta.yaml', message: 'go' }, { 'delta.yaml': 'set: {agent: {max_turns: 4}}\n' });
    expect(result.code).toBe(2);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(
      "delta.yaml:1:1: is a delta {set, remove}, not an agent build (id and agent at the top): a delta changes a build, given beside it (test-run --delta FILE, a scenario's delta:)",
    );
  });

  it('a scenario file or a scenarios file given to --agent is named as one in a single line, pointing to agentcheck run', async () => {
    const scenario = 'name: a\nagent: ./bot.yaml\ninputs: {messages: [{role: user, content: hi}]}\nmodel: {script: [{text: ok}]}\n';
    const scenarios = 'scenarios:\n  - {name: a, agent: ./bot.yaml, inputs: {messages: [{role: user, content: hi}]}}\n';
    for (const file of ['a.scenario.yaml', 'list.scenarios.yaml']) {
      const result = await run({ agent: file, message: 'go' }, { 'bot.yaml': SCRIPTED, 'a.scenario.yaml': scenario, 'list.scenarios.yaml': scenarios });
      expect(result.code).toBe(2);
      const lines = result.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`${file}:1:1: is a scenario file (name, agent and inputs at the top, or a scenarios: list), not an agent build`);
      expect(lines[0]).toContain('to run it, use agentcheck run FILE');
      expect(result.stderr).not.toContain('unknown key');
    }
  });

  it('--message "" is given, and refused as empty rather than as missing', async () => {
    const result = await run({ message: '', script: 'script.yaml' }, { 'agent.yaml': SCRIPTED, 'script.yaml': SCRIPT });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--message is empty');
    expect(result.stderr).not.toContain('give exactly one of');
  });

  it('neither or both of --message and --inputs is still refused', async () => {
    const files = { 'agent.yaml': SCRIPTED, 'script.yaml': SCRIPT, 'inputs.yaml': 'messages: [{role: user, content: go}]\n' };
    expect((await run({ script: 'script.yaml' }, files)).stderr).toContain('give exactly one of --message TEXT or --inputs FILE');
    expect((await run({ message: 'go', inputs: 'inputs.yaml', script: 'script.yaml' }, files)).code).toBe(2);
  });

  it('an empty --delta file is an error, like any malformed delta', async () => {
    const result = await run(
      { message: 'go', script: 'script.yaml', delta: 'delta.yaml' },
      { 'agent.yaml': SCRIPTED, 'script.yaml': SCRIPT, 'delta.yaml': '' },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/delta\.yaml: expected a delta \(a mapping with set or remove\), got an empty file/);
    const comment = await run(
      { message: 'go', script: 'script.yaml', delta: 'delta.yaml' },
      { 'agent.yaml': SCRIPTED, 'script.yaml': SCRIPT, 'delta.yaml': '# nothing yet\n' },
    );
    expect(comment.code).toBe(2);
  });

  it('an empty or non-mapping --agent, --delta, --mocks or --inputs file, or a --script that is not a list, names the kind of file expected, as run does', async () => {
    const files = { 'agent.yaml': SCRIPTED, 'script.yaml': SCRIPT, 'empty.yaml': '', 'list.yaml': '[1]\n', 'comment.yaml': '# nothing yet\n' };
    const cases: Array<[Partial<TestRunOptions>, RegExp]> = [
      [{ agent: 'empty.yaml' }, /empty\.yaml: expected an agent build \(a mapping with id and agent or flow or external\), got an empty file/],
      [{ agent: 'list.yaml' }, /list\.yaml:1:1: expected an agent build \(a mapping with id and agent or flow or external\), got an array/],
      [{ delta: 'list.yaml' }, /list\.yaml:1:1: expected a delta \(a mapping with set or remove\), got an array/],
      [{ mocks: 'list.yaml' }, /list\.yaml:1:1: expected mocks \(a mapping with http: \[\.\.\.\]\), got an array/],
      [{ mocks: 'empty.yaml' }, /empty\.yaml: expected mocks \(a mapping with http: \[\.\.\.\]\), got an empty file/],
      [{ script: 'empty.yaml' }, /empty\.yaml: expected a script \(a list of model responses, as a scenario's model\.script\), got an empty file$/m],
      [{ script: 'agent.yaml' }, /agent\.yaml:1:1: expected a script \(a list of model responses, as a scenario's model\.script\), got an object$/m],
    ];
    for (const [options, message] of cases) {
      const result = await run({ message: 'go', script: 'script.yaml', ...options }, files);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(message);
    }
    const inputs: Array<[string, RegExp]> = [
      ['comment.yaml', /comment\.yaml: expected inputs \(a mapping with messages and an optional context\), got an empty file$/m],
      ['list.yaml', /list\.yaml:1:1: expected inputs \(a mapping with messages and an optional context\), got an array$/m],
    ];
    for (const [file, message] of inputs) {
      const result = await run({ inputs: file, script: 'script.yaml' }, files);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(message);
    }
  });

  it('a --script, --delta or --approvals file that holds null (JSON null, YAML null or ~) says null; one with nothing but a document marker is empty', async () => {
    const files = { 'agent.yaml': SCRIPTED, 'null.json': 'null\n', 'null.yaml': 'null\n', 'tilde.yaml': '~\n', 'marker.yaml': '---\n' };
    const kinds = [
      "a script \\(a list of model responses, as a scenario's model\\.script\\)",
      'a delta \\(a mapping with set or remove\\)',
      'approvals \\(a mapping with default or tools\\)',
    ];
    for (const [file, got] of [
      ['null.json', 'null'],
      ['null.yaml', 'null'],
      ['tilde.yaml', 'null'],
      ['marker.yaml', 'an empty file'],
    ]) {
      const result = await run({ message: 'go', script: file, delta: file, approvals: file }, files);
      expect(result.code, result.stderr).toBe(2);
      for (const kind of kinds) expect(result.stderr).toMatch(new RegExp(`${file.replace('.', '\\.')}:1:\\d+: expected ${kind}, got ${got}$`, 'm'));
    }
  });

  it('a scripted model without --script exits 2 before running', async () => {
    for (const agent of [SCRIPTED, NO_LLM]) {
      const result = await run({ message: 'go' }, { 'agent.yaml': agent });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(
        'provider "scripted" needs a script (one entry per model call): give it as a scenario\'s model.script, test-run --script FILE',
      );
      expect(result.stdout).toBe('');
    }
    // A delta that makes the model scripted is the place to fix: the message names the delta file.
    const byDelta = await run(
      { message: 'go', delta: 'to-scripted.yaml' },
      { 'agent.yaml': OPENAI, 'to-scripted.yaml': 'set: {agent: {llm: {provider: scripted, model: s}}}\n' },
    );
    expect(byDelta.code).toBe(2);
    expect(byDelta.stderr).toMatch(/to-scripted\.yaml: provider "scripted" needs a script .*\(the delta makes agent\.llm provider scripted\)/);
  });

  it('a flow without --script, and a real provider without --script, still run', async () => {
    const flow = await run({ message: 'go', terminalTool: 'finish' }, { 'agent.yaml': FLOW });
    expect(flow.stderr).toBe('');
    expect(flow.code).toBe(0);
    const real = await run({ message: 'go', json: true }, { 'agent.yaml': OPENAI });
    expect(real.stderr).not.toContain('scripted');
    expect(real.code).toBe(1);
  });

  it('a valid run with a delta and a script passes', async () => {
    const result = await run(
      { message: 'go', script: 'script.yaml', delta: 'delta.yaml', terminalTool: 'finish', json: true },
      { 'agent.yaml': SCRIPTED, 'script.yaml': SCRIPT, 'delta.yaml': 'set: {agent: {max_turns: 3}}\n' },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).resolved.max_turns).toBe(3);
  });

  it('duplicate call ids in --script are a located error', async () => {
    const result = await run(
      { message: 'go', script: 'script.yaml' },
      {
        'agent.yaml': SCRIPTED,
        'script.yaml': '- tool_calls:\n    - {name: finish, args: {}, id: a}\n    - {name: finish, args: {}, id: a}\n',
      },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/script\.yaml:3:\d+ at \[0\]\.tool_calls\[1\]\.id: duplicate tool call id "a"/);
  });

  it('--terminal-tool and --script tool names are checked against the build, with a "did you mean"', async () => {
    const terminal = await run({ message: 'go', script: 'script.yaml', terminalTool: 'finsh' }, { 'agent.yaml': SCRIPTED, 'script.yaml': SCRIPT });
    expect(terminal.code).toBe(2);
    expect(terminal.stdout).toBe('');
    expect(terminal.stderr).toContain('--terminal-tool: it names no tool of the agent: "finsh"; expected one of: finish');
    expect(terminal.stderr).toContain('did you mean "finish"');

    const script = await run(
      { message: 'go', script: 'script.yaml' },
      { 'agent.yaml': SCRIPTED, 'script.yaml': '- text: thinking\n- tool_calls: [{name: fnish, args: {}}]\n' },
    );
    expect(script.code).toBe(2);
    expect(script.stdout).toBe('');
    expect(script.stderr).toMatch(
      /script\.yaml:2:\d+ at \[1\]\.tool_calls\[0\]\.name: the script calls "fnish", which the agent does not offer the model; expected one of: finish/,
    );
    expect(script.stderr).toContain('did you mean "finish"');
    // Advice a test-run user can follow: --script is a list, with no allow_unknown_tools of its own.
    expect(script.stderr).toContain('a test-run script calls only tools the agent offers');
    expect(script.stderr).not.toContain('set model.allow_unknown_tools: true)');
  });

  it('both problems are reported in one pass, and names are held to the build after --delta', async () => {
    const files = {
      'agent.yaml': SCRIPTED,
      'script.yaml': '- tool_calls: [{name: lookup, args: {}}]\n',
      'delta.yaml': 'set: {agent: {tools: [{name: lookup, returns: {}}]}}\n',
    };
    const both = await run({ message: 'go', script: 'script.yaml', terminalTool: 'nope' }, files);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('"nope"');
    expect(both.stderr).toContain('"lookup"');
    // The delta replaces the tools with lookup: the script's call is fine, finish is gone.
    const delta = await run({ message: 'go', script: 'script.yaml', delta: 'delta.yaml', terminalTool: 'finish' }, files);
    expect(delta.code).toBe(2);
    expect(delta.stderr).toContain('--terminal-tool: it names no tool of the agent: "finish"; expected one of: lookup');
    expect(delta.stderr).not.toContain('script.yaml');
  });

  it('lists the problems of every file and flag in one pass: delta, script, mocks, approvals and --terminal-tool', async () => {
    const files = {
      'agent.yaml': SCRIPTED,
      'delta.yaml': 'remove: [agent.tools.9, "agent.tools[name=zz]"]\n',
      'script.yaml': '- tool_calls: [{name: fnish, args: {}, id: c1}, {name: finish, args: {}, id: c1}]\n- txt: done\n',
      'mocks.yaml': 'http:\n  - {url: "https://x.test", json: {}, body: x}\n  - {method: FETCH, url: 3}\n',
      'approvals.yaml': 'default: maybe\n',
      'ids.yaml': '- tool_calls: [{name: fnish, args: {}, id: c1}, {name: finish, args: {}, id: c1}]\n- text: done\n',
    };
    const result = await run(
      { message: 'go', delta: 'delta.yaml', script: 'script.yaml', mocks: 'mocks.yaml', approvals: 'approvals.yaml', terminalTool: 'nope' },
      files,
    );
    expect(result.code).toBe(2);
    for (const where of ['delta.yaml:1:', 'script.yaml:2:', 'mocks.yaml:2:', 'mocks.yaml:3:', 'approvals.yaml:1:']) expect(result.stderr).toContain(where);
    expect(result.stderr).toMatch(/delta\.yaml:1:\d+ at remove\[0\][\s\S]*delta\.yaml:1:\d+ at remove\[1\]/);
    // The script's duplicate id and its misspelt tool, without the delta's problems standing in the way.
    const script = await run({ message: 'go', script: 'ids.yaml', terminalTool: 'finish' }, files);
    expect(script.stderr).toContain('duplicate tool call id "c1"');
    expect(script.stderr).toContain('the script calls "fnish"');
  });
});
