import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, ConfigErrors } from '../../../src/config/errors.js';
import { validateFiles } from '../../../src/runner/validate/validate-files.js';
import { tempDir } from '../../helpers/temp-dir.js';

const SHOP = 'id: shop\nagent:\n  name: Shop\n  tools: [{name: refund, description: Refund., returns: {ok: true}}, {name: lookup, returns: {}}]\n';
const NOTES = 'id: notes\nagent:\n  name: Notes\n  tools: [{name: write_note, returns: {ok: true}}]\n';
const scenario = (name: string, agent: string, tool: string) =>
  `name: ${name}\nagent: ${agent}\ninputs: {messages: [{role: user, content: go}]}\nexpect: {terminal_tool: ${tool}}\n`;
// The variant edits the shop's refund tool: it applies to the shop build only.
const CONFIG = 'scenarios: [suite/*.yaml]\nvariants:\n  terse:\n    set:\n      agent.tools[name=refund].description: Refund an order.\n';

describe('validate applies variants to exactly the builds the suite uses', () => {
  it("--config without paths checks the config's scenarios, not every build in the folder (as run does)", async () => {
    const dir = tempDir({
      'agentcheck.config.yaml': CONFIG,
      'shop.yaml': SHOP,
      'notes.yaml': NOTES,
      'suite/refund.yaml': scenario('refund', '../shop.yaml', refundTool()),
      'other/notes.scenario.yaml': scenario('notes', '../notes.yaml', 'write_note'),
    });
    const report = await validateFiles([], { config: 'agentcheck.config.yaml' }, dir);
    expect(report.problems).toEqual([]);
    expect(report.scenarios).toBe(1);
  });

  it("a variant that does not apply to a suite scenario's build names the variant, the scenario and the build", async () => {
    const dir = tempDir({
      'agentcheck.config.yaml': CONFIG,
      'shop.yaml': SHOP,
      'notes.yaml': NOTES,
      'suite/notes.yaml': scenario('notes', '../notes.yaml', 'write_note'),
    });
    const report = await validateFiles([], { config: 'agentcheck.config.yaml' }, dir);
    expect(report.problems).toHaveLength(1);
    const error = report.problems[0].error as ConfigError;
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.file).toMatch(/agentcheck\.config\.yaml$/);
    expect(error.line).toBe(5);
    expect(error.expected).toContain('variant "terse" does not apply to the build notes.yaml of scenario "suite/notes.yaml#notes"');
  });

  it('a suite config found under the paths checks its own scenario files with its variants', async () => {
    const dir = tempDir({
      'toolsets/agentcheck.config.yaml': CONFIG,
      'toolsets/shop.yaml': SHOP,
      // Not named *.scenario.yaml: only the config's `scenarios` list makes it a scenario file.
      'toolsets/suite/refund.yaml': scenario('refund', '../shop.yaml', 'refnd'),
    });
    const report = await validateFiles(['.'], {}, dir);
    expect(report.problems.map((problem) => problem.path)).toEqual(['expect.terminal_tool']);
    expect(report.problems[0].message).toContain('did you mean "refund"?');
  });

  it("--config FILE DIR applies FILE's variants to DIR's scenario files, as run --config FILE DIR does, though DIR has a config of its own", async () => {
    const dir = tempDir({
      // Outside the folder; its variant edits the shop's refund tool, which the notes build lacks.
      'cfg/other.yaml': 'variants:\n  terse:\n    set:\n      agent.tools[name=refund].description: Refund an order.\n',
      'suite/agentcheck.config.yaml': 'repeat: 1\n',
      'suite/shop.yaml': SHOP,
      'suite/notes.yaml': NOTES,
      'suite/refund.scenario.yaml': scenario('refund', 'shop.yaml', 'refund'),
      'suite/notes.scenario.yaml': scenario('notes', 'notes.yaml', 'write_note'),
    });
    const report = await validateFiles(['suite'], { config: 'cfg/other.yaml' }, dir);
    expect(report.problems.map((problem) => problem.message)).toEqual([
      expect.stringMatching(
        /cfg\/other\.yaml:4:\d+ at variants\.terse\.set.*variant "terse" does not apply to the build \.\.\/suite\/notes\.yaml of scenario "notes\.scenario\.yaml#notes"/,
      ),
    ]);
    // Both configs are checked as files; FILE is not counted valid, as its variant does not apply.
    expect(report.counts.config).toBe(1);
    expect(report.scenarios).toBe(2);
  });
});

describe('validate reports every problem of a file in one pass', () => {
  it('three problems in one scenario file are three located problems', async () => {
    const dir = tempDir({
      'shop.yaml': SHOP,
      'a.scenarios.yaml': `scenarios:
  - name: one
    agent: shop.yaml
    inputs: {messages: [{role: user, content: go}]}
    expect: {terminal_tool: refnd, checks: [{tool_not_called: {tool: lookp}}]}
  - name: two
    agent: shop.yaml
    inputs: {messages: [{role: user, content: go}]}
    expect: {checks: [{tool_called: {tool: refund, min: 3, max: 1}}]}
`,
    });
    const report = await validateFiles(['.'], {}, dir);
    expect(report.problems.map((problem) => [problem.line, problem.path])).toEqual([
      [5, 'scenarios[0].expect.terminal_tool'],
      [5, 'scenarios[0].expect.checks[0].tool_not_called.tool'],
      [9, 'scenarios[1].expect.checks[0].tool_called.max'],
    ]);
    expect(report.problems.every((problem) => problem.error instanceof ConfigError)).toBe(true);
    expect(report.counts.agent).toBe(1);
  });

  it("a number that cannot be read as written is reported beside the file's other problems, in builds, scenarios and configs", async () => {
    const dir = tempDir({
      'big.yaml': 'id: n\nrevision: 12345678901234567890\nagent:\n  nme: x\n  max_turns: "ten"\n',
      'shop.yaml': SHOP,
      's.scenario.yaml': 'name: s\nagent: shop.yaml\ntimeout_ms: 1e400\ninputs: {messages: [{role: user, content: go}]}\nexpct: {}\n',
      'agentcheck.config.yaml': 'repeat: 12345678901234567890\nvarints: {}\n',
    });
    const report = await validateFiles(['big.yaml', 's.scenario.yaml', 'agentcheck.config.yaml'], {}, dir);
    expect(report.problems.map((problem) => [problem.file.slice(dir.length + 1), problem.path]).sort()).toEqual([
      ['agentcheck.config.yaml', 'repeat'],
      ['agentcheck.config.yaml', 'varints'],
      ['big.yaml', 'agent.max_turns'],
      ['big.yaml', 'agent.nme'],
      ['big.yaml', 'revision'],
      ['s.scenario.yaml', 'expct'],
      ['s.scenario.yaml', 'timeout_ms'],
    ]);
  });

  it('an unknown key holding a number that cannot be read is reported as the unknown key, first, and as the number', async () => {
    const dir = tempDir({
      'u.yaml': 'id: nb\nagent:\n  name: N\n  foo: 12345678901234567890\n  max_turns: "x"\n',
      'j.json': '{"id": "nb", "agent": {"name": "N", "foo": 12345678901234567890}}\n',
      'skills/s1/SKILL.md': '---\nname: s1\ndescription: d\nx: 12345678901234567890\n---\nbody\n',
    });
    const report = await validateFiles(['u.yaml', 'j.json', 'skills'], {}, dir);
    expect(report.problems.map((problem) => problem.message.slice(dir.length + 1).replace(/(: .{24}).*/, '$1'))).toEqual([
      'u.yaml:4:3 at agent.foo: unknown key "foo"; expec',
      'u.yaml:4:8 at agent.foo: number 12345678901234567',
      'u.yaml:5:14 at agent.max_turns: expected integer, got st',
      'j.json:1:37 at agent.foo: unknown key "foo"; expec',
      'j.json:1:44 at agent.foo: number 12345678901234567',
      'skills/s1/SKILL.md:4:1 at x: unknown key "x"; a skill',
      'skills/s1/SKILL.md:4:4 at x: number 12345678901234567',
    ]);
  });

  it("a key given twice is reported beside the file's other problems, in YAML and JSON, scenarios and builds", async () => {
    const checks = 'expect:\n  checks:\n    - output: {contains: a}\n      output: {contains: b}\n      treshold: 3\n';
    const dir = tempDir({
      'shop.yaml': SHOP,
      'd.scenario.yaml': `name: d\nagent: shop.yaml\ninputs: {messages: [{role: user, content: go}]}\n${checks}`,
      'd.scenario.json':
        '{"name": "d", "agent": "shop.yaml", "inputs": {"messages": [{"role": "user", "content": "go"}]},\n "expect": {"checks": [{"output": {"contains": "a"}, "output": {"contains": "b"}}]}, "timeout_ms": "x"}',
      'b.yaml': 'id: b\nagent:\n  name: B\n  name: C\n  nme: x\n',
    });
    const report = await validateFiles(['d.scenario.yaml', 'd.scenario.json', 'b.yaml'], {}, dir);
    expect(report.problems.map((problem) => `${problem.file.slice(dir.length + 1)}:${problem.line} ${problem.path}`)).toEqual([
      'd.scenario.yaml:6 expect.checks[0]',
      'd.scenario.yaml:7 expect.checks[0].output',
      'd.scenario.json:2 expect.checks[0].output',
      'd.scenario.json:2 timeout_ms',
      'b.yaml:4 agent.name',
      'b.yaml:5 agent.nme',
    ]);
    expect(report.problems[1].message).toContain('the key "output" is given twice in one mapping (first at line 6); remove one');
    expect(report.problems[2].message).toContain('the key "output" appears twice in one object');
  });

  it("a list or a mapping used as a key is reported beside the file's other problems, and the string it was read as is not", async () => {
    const dir = tempDir({
      'shop.yaml': SHOP,
      'c.scenario.yaml': 'name: c\nagent: shop.yaml\ninputs: {messages: [{role: user, content: go}], context: {[a]: 1}}\nexpct: {}\n',
      'c.yaml': 'id: c\n? [a, b]\n: 1\nagent:\n  name: C\n  nme: x\n  tools: [{name: t, description: d, returns: {? {k: 1}: 1}}]\n',
      'agentcheck.config.yaml': 'repeat: 2\n? [x]\n: {y: 1}\nrepet: 3\n',
    });
    const report = await validateFiles(['c.scenario.yaml', 'c.yaml', 'agentcheck.config.yaml'], {}, dir);
    // The unknown keys "a,b" and "x" the complex keys were read as are not said: the key's own problem is.
    expect(report.problems.map((problem) => problem.message.slice(dir.length + 1).replace(/; expected one of: .*/, ''))).toEqual([
      'agentcheck.config.yaml:2:3: a mapping key must be a scalar such as a name, not a list or a mapping',
      'agentcheck.config.yaml:4:1 at repet: unknown key "repet" (did you mean "repeat"?)',
      'c.scenario.yaml:3:59 at inputs.context: a mapping key must be a scalar such as a name, not a list or a mapping',
      'c.scenario.yaml:4:1 at expct: unknown key "expct" (did you mean "expect"?)',
      'c.yaml:2:3: a mapping key must be a scalar such as a name, not a list or a mapping',
      'c.yaml:6:3 at agent.nme: unknown key "nme" (did you mean "name"?)',
      'c.yaml:7:49 at agent.tools[0].returns: a mapping key must be a scalar such as a name, not a list or a mapping',
    ]);
  });

  it('a number beyond 2^53 is told to be written as a string only where a string is accepted in its place', async () => {
    const dir = tempDir({
      'shop.yaml': SHOP,
      's.scenario.yaml': `name: s
agent: shop.yaml
timeout_ms: 9007199254740993
inputs: {messages: [{role: user, content: go}]}
model: {script: [{tool_calls: [{name: refund, args: {order_id: 9007199254740993}}]}]}
expect: {checks: [{judge: {rubric: polite, threshold: 9007199254740993}}]}
`,
      'agentcheck.config.yaml': 'repeat: 9007199254740993\n',
    });
    const report = await validateFiles(['s.scenario.yaml', 'agentcheck.config.yaml'], {}, dir);
    const beyond = 'number 9007199254740993 is beyond 2^53 (9007199254740991) and would be rounded';
    expect(report.problems.map((problem) => [problem.path, problem.error instanceof ConfigError ? problem.error.expected : ''])).toEqual([
      ['repeat', beyond],
      ['timeout_ms', beyond],
      ['model.script[0].tool_calls[0].args.order_id', `${beyond}; write a large id as a string`],
      ['expect.checks[0].judge.threshold', beyond],
    ]);
  });

  it('refuses a verdict pass or incomplete without a terminal_tool, which could never come', async () => {
    const dir = tempDir({
      'shop.yaml': SHOP,
      'v.scenarios.yaml': `scenarios:
  - {name: a, agent: shop.yaml, inputs: {messages: [{role: user, content: go}]}, expect: {verdict: pass}}
  - {name: b, agent: shop.yaml, inputs: {messages: [{role: user, content: go}]}, expect: {verdict: incomplete}}
  - {name: c, agent: shop.yaml, inputs: {messages: [{role: user, content: go}]}, expect: {verdict: unconfirmed}}
  - {name: d, agent: shop.yaml, inputs: {messages: [{role: user, content: go}]}, expect: {verdict: pass, terminal_tool: refund}}
`,
    });
    const report = await validateFiles(['.'], {}, dir);
    expect(report.problems.map((problem) => problem.path)).toEqual(['scenarios[0].expect.verdict', 'scenarios[1].expect.verdict']);
    expect(report.problems[0].message).toContain('verdict pass needs expect.terminal_tool: without one the verdict is unconfirmed (or failed)');
  });

  it("a judge check's grader model is checked beside its other parameters and beside the other judge checks", async () => {
    const dir = tempDir({
      'shop.yaml': SHOP,
      'j.scenario.yaml': `name: j
agent: shop.yaml
inputs: {messages: [{role: user, content: go}]}
expect:
  checks:
    - judge: {rubric: polite, threshold: 5, model: {provider: openai, model: m, temperature: 0}}
    - judge: {rubric: polite, model: {provider: openai, model: m, temprature: 0}}
    - judge: {rubric: polite, model: {provider: openai, model: m, script: [{text: a, tool_calls: [{name: x, id: c}, {name: y, id: c}]}]}}
`,
    });
    const report = await validateFiles(['.'], {}, dir);
    expect(report.problems.map((problem) => [problem.line, problem.path])).toEqual([
      [6, 'expect.checks[0].judge.threshold'],
      [6, 'expect.checks[0].judge.model.temperature'],
      [7, 'expect.checks[1].judge.model.temprature'],
      [8, expect.stringMatching(/^expect\.checks\[2\]\.judge\.model\.script\[0\]\.tool_calls\[1\]/)],
    ]);
  });
});

function refundTool(): string {
  return 'refund';
}

describe("validate checks the suite, not the size of run's plan", () => {
  it('accepts a repeat beyond run --max-runs (a run-time limit validate cannot be given) and still applies the variants', async () => {
    const dir = tempDir({
      'agentcheck.config.yaml': `${CONFIG}repeat: 3000000\n`,
      'shop.yaml': SHOP,
      'suite/refund.yaml': scenario('refund', '../shop.yaml', 'refund'),
    });
    const report = await validateFiles([], { config: 'agentcheck.config.yaml' }, dir);
    expect(report.problems).toEqual([]);
    expect(report.scenarios).toBe(1);
  });
});

describe("the suite's default grader", () => {
  it('refuses a scripted grader without a script, in the check or in the config, where it is written', async () => {
    const judged = (name: string, model = '') =>
      `name: ${name}\nagent: ../shop.yaml\ninputs: {messages: [{role: user, content: go}]}\nexpect: {checks: [{judge: {rubric: polite${model}}}]}\n`;
    const dir = tempDir({
      'agentcheck.config.yaml': 'scenarios: [suite/*.yaml]\njudge:\n  model: {provider: scripted, model: g}\n',
      'shop.yaml': SHOP,
      'suite/a.yaml': judged('a'),
      'suite/b.yaml': judged('b', ', threshold: 7, model: {provider: scripted, model: own}'),
    });
    const report = await validateFiles([], { config: 'agentcheck.config.yaml' }, dir);
    // The suite's grader is blamed in the config; a check's own beside its other problem, in one pass.
    expect(report.problems.map((problem) => [problem.file.slice(dir.length + 1), problem.path])).toEqual([
      ['agentcheck.config.yaml', 'judge.model'],
      ['suite/b.yaml', 'expect.checks[0].judge.threshold'],
      ['suite/b.yaml', 'expect.checks[0].judge.model'],
    ]);
    expect(report.problems[0].message).toMatch(/a scripted grader needs a `script` of its answers, e\.g\. .*; the judge checks that name no model/);
    expect(report.problems[2].message).toContain('a scripted grader needs a `script` of its answers');
  });

  it('is blamed, once and at its own line, when judge checks that name no model use it incomplete', async () => {
    const judged = (name: string) =>
      `name: ${name}\nagent: ../shop.yaml\ninputs: {messages: [{role: user, content: go}]}\nexpect: {checks: [{judge: {rubric: polite}}]}\n`;
    const dir = tempDir({
      'agentcheck.config.yaml': 'scenarios: [suite/*.yaml]\njudge:\n  model: {provider: openai}\n',
      'shop.yaml': SHOP,
      'suite/a.yaml': judged('a'),
      'suite/b.yaml': judged('b'),
    });
    const report = await validateFiles([], { config: 'agentcheck.config.yaml' }, dir);
    expect(report.problems.map((problem) => [problem.file, problem.line, problem.path])).toEqual([[`${dir}/agentcheck.config.yaml`, 3, 'judge.model']]);
    expect(report.problems[0].message).toContain('a grader model needs `provider` and `model`');
  });

  it('incomplete where the checks of a dataset scenario use it, is said once at the config, naming no row, and the files count as valid', async () => {
    const judged = (name: string, dataset = '') =>
      `name: ${name}\nagent: ../shop.yaml\ninputs: {messages: [{role: user, content: go}]}\nexpect: {checks: [{judge: {rubric: polite}}]}\n${dataset}`;
    for (const dataset of ['dataset: [{id: a}, {id: b}]\n', 'dataset: rows.csv\n']) {
      const dir = tempDir({
        'agentcheck.config.yaml': 'scenarios: [suite/*.yaml]\njudge:\n  model: {provider: openai}\n',
        'shop.yaml': SHOP,
        'suite/rows.csv': 'id\na\nb\n',
        'suite/a.yaml': judged('"a {{ vars.id }}"', dataset),
        'suite/b.yaml': judged('b'),
      });
      for (const report of [await validateFiles([], { config: 'agentcheck.config.yaml' }, dir), await validateFiles(['.'], {}, dir)]) {
        expect(report.problems.map((problem) => [problem.file.slice(dir.length + 1), problem.line, problem.path])).toEqual([
          ['agentcheck.config.yaml', 3, 'judge.model'],
        ]);
        expect(report.problems[0].message).not.toContain('dataset row');
        expect([report.counts.scenario, report.scenarios]).toEqual([2, 3]);
      }
    }
  });

  it('with a problem of its own, is said once at the config, with no "needs a grader model" for the checks that would use it', async () => {
    const judged = (name: string, model = '') =>
      `name: ${name}\nagent: ../shop.yaml\ninputs: {messages: [{role: user, content: go}]}\nexpect: {checks: [{judge: {rubric: polite${model}}}]}\n`;
    for (const judge of ['  model: {provider: openai, model: m, parameters: {paralel_tool_calls: false}}', '  modle: {provider: openai, model: m}']) {
      const dir = tempDir({
        'agentcheck.config.yaml': `scenarios: [suite/*.yaml]\njudge:\n${judge}\n`,
        'shop.yaml': SHOP,
        'suite/a.yaml': judged('a'),
        'suite/b.yaml': judged('b', ', model: {temperature: 0}'),
        // A check with a grader of its own is still checked against it.
        'suite/c.yaml': judged('c', ', model: {provider: scripted, model: own}'),
      });
      for (const report of [await validateFiles([], { config: 'agentcheck.config.yaml' }, dir), await validateFiles(['.'], {}, dir)]) {
        expect(report.problems.map((problem) => [problem.file.slice(dir.length + 1), problem.path])).toEqual([
          ['agentcheck.config.yaml', judge.includes('modle') ? 'judge.modle' : 'judge.model.parameters.paralel_tool_calls'],
          ['suite/b.yaml', 'expect.checks[0].judge.model.temperature'],
          ['suite/c.yaml', 'expect.checks[0].judge.model'],
        ]);
        expect(report.problems.map((problem) => problem.message).join('\n')).not.toContain('needs a grader model');
      }
    }
  });

  it('with a bad script, is said once at the config, each entry, not at every judge check, and the config is not counted valid', async () => {
    const judged = (name: string) =>
      `name: ${name}\nagent: ../shop.yaml\ninputs: {messages: [{role: user, content: go}]}\nexpect: {checks: [{judge: {rubric: polite}}, {judge: {rubric: kind}}]}\n`;
    const dir = tempDir({
      'agentcheck.config.yaml':
        'scenarios: [suite/*.yaml]\njudge:\n  model: {provider: scripted, model: scripted, script: [{text: x, error: {message: e}}, {tool_calls: []}, {text: ok}]}\n',
      'shop.yaml': SHOP,
      'suite/a.yaml': judged('a'),
      'suite/b.yaml': judged('b'),
    });
    for (const report of [await validateFiles([], { config: 'agentcheck.config.yaml' }, dir), await validateFiles(['.'], {}, dir)]) {
      expect(report.problems.map((problem) => [problem.file.slice(dir.length + 1), problem.path])).toEqual([
        ['agentcheck.config.yaml', 'judge.model.script[0].error'],
        ['agentcheck.config.yaml', 'judge.model.script[1].tool_calls'],
      ]);
      expect(report.problems[0].message).toContain('an entry is either an answer (text and/or tool_calls) or an error, not both');
      expect(report.problems[1].message).toContain('an empty tool_calls list answers nothing');
      expect(report.counts.config).toBe(0);
    }
  });
});

describe("the suite's model", () => {
  const OPENAI = 'id: shop\nagent:\n  name: Shop\n  llm: {provider: openai, model: gpt-4.1-mini}\n  tools: [{name: refund, returns: {ok: true}}]\n';
  const suite = (config: string) =>
    tempDir({
      'agentcheck.config.yaml': `scenarios: [suite]\n${config}`,
      'shop.yaml': OPENAI,
      'suite/a.scenario.yaml': scenario('a', '../shop.yaml', 'refund'),
      'suite/b.scenario.yaml': scenario('b', '../shop.yaml', 'refund'),
    });
  const located = (report: Awaited<ReturnType<typeof validateFiles>>) => report.problems.map((problem) => [problem.file, problem.line, problem.path]);

  it('switching the provider without a model is reported once, at the config, which is not counted valid', async () => {
    const dir = suite('model: {provider: anthropic}\n');
    const report = await validateFiles([], { config: 'agentcheck.config.yaml' }, dir);
    expect(located(report)).toEqual([[`${dir}/agentcheck.config.yaml`, 2, 'model.provider']]);
    expect(report.problems[0].message).toContain('model.provider changes the provider to "anthropic": name its model too (model.model)');
    // The config's problem, not its scenario files': they are checked and counted without it, as
    // beside a variant that does not apply.
    expect(report.counts).toMatchObject({ config: 0, scenario: 2 });
    expect(report.scenarios).toBe(2);
    // Found under the paths, the config is blamed the same way.
    const found = await validateFiles(['.'], {}, dir);
    expect(located(found)).toEqual([[`${dir}/agentcheck.config.yaml`, 2, 'model.provider']]);
    expect(found.counts).toMatchObject({ config: 0, scenario: 2 });
  });

  it("a scenario file's own problems beside the config's model problem are still its own (not counted valid)", async () => {
    const dir = suite('model: {provider: anthropic}\n');
    writeFileSync(join(dir, 'suite/b.scenario.yaml'), 'name: b\nagent: ../shop.yaml\ninputs: {messages: [{role: user, content: hi}]}\nexpect: {checkz: []}\n');
    const report = await validateFiles([], { config: 'agentcheck.config.yaml' }, dir);
    expect(report.problems.map((problem) => problem.file)).toEqual([`${dir}/agentcheck.config.yaml`, `${dir}/suite/b.scenario.yaml`]);
    expect(report.counts).toMatchObject({ config: 0, scenario: 1 });
  });

  it("parameters that do not fit a build's provider are reported once, at the config, naming the build", async () => {
    const dir = suite('model: {parameters: {stop_sequences: [x]}}\n');
    const report = await validateFiles([], { config: 'agentcheck.config.yaml' }, dir);
    expect(located(report)).toEqual([[`${dir}/agentcheck.config.yaml`, 2, 'model.parameters.stop_sequences']]);
    expect(report.problems[0].message).toContain('for the build shop.yaml: unknown openai parameter "stop_sequences"; openai calls it "stop"');
    expect(report.counts.config).toBe(0);
  });

  it('parameters that do not fit the provider it names are a problem of the config itself, beside its suite checked without that model', async () => {
    const dir = suite('model: {provider: anthropic, model: claude-x, parameters: {stop: [x]}}\n');
    const report = await validateFiles([], { config: 'agentcheck.config.yaml' }, dir);
    expect(located(report)).toEqual([[`${dir}/agentcheck.config.yaml`, 2, 'model.parameters.stop']]);
    expect(report.problems[0].message).toMatch(/agentcheck\.config\.yaml:2:\d+ at model\.parameters\.stop: unknown anthropic parameter "stop"/);
    expect(report.counts).toMatchObject({ scenario: 2, config: 0 });
  });

  it("a bad timeout_ms of the suite's model or default grader does not hide their parameters' problems", async () => {
    const dir = suite(
      'model: {provider: anthropic, model: claude-x, timeout_ms: 0, parameters: {stop: [x]}}\n' +
        'judge: {model: {provider: openai, model: g, max_retries: -1, parameters: {temprature: 1, tool_choice: auto}}}\n',
    );
    // Every problem of the config, the model's and the default grader's alike, beside the others.
    const report = await validateFiles([], { config: 'agentcheck.config.yaml' }, dir);
    const found = report.problems.map((one) => [one.line, one.path]);
    const expected = [
      [2, 'model.timeout_ms'],
      [2, 'model.parameters.stop'],
      [3, 'judge.model.max_retries'],
      [3, 'judge.model.parameters.temprature'],
      [3, 'judge.model.parameters.tool_choice'],
    ];
    expect(found).toHaveLength(expected.length);
    expect(found).toEqual(expect.arrayContaining(expected));
  });

  it('a --config whose scenarios cannot be read is still reported alone: what to check is unknown', async () => {
    const dir = tempDir({ 'agentcheck.config.yaml': 'scenarios: 5\nskills: {forced: [./nope]}\n', 'shop.yaml': OPENAI });
    const error = await validateFiles([], { config: 'agentcheck.config.yaml' }, dir).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigErrors).errors.map((one) => one.path)).toEqual(['scenarios', 'skills.forced[0]']);
  });
});

describe('a config whose scenarios globs match nothing', () => {
  it('is a problem of the config, at its scenarios key, found by validate as run would find nothing', async () => {
    const dir = tempDir({ 'agentcheck.config.yaml': 'scenarios: ["tests/**/*.scenario.yaml"]\n', 'shop.yaml': SHOP });
    for (const report of [await validateFiles(['.'], {}, dir), await validateFiles([], { config: 'agentcheck.config.yaml' }, dir)]) {
      expect(report.problems.map((problem) => [problem.line, problem.path])).toEqual([[1, 'scenarios']]);
      expect(report.problems[0].message).toContain('matches no scenario file (scenario files are named *.scenario.yaml or *.scenarios.yaml); check the globs');
      expect(report.counts.config).toBe(0);
    }
  });

  it('says a variant that does not apply to a build once, however many scenario files use that build, and does not count its config valid', async () => {
    const dir = tempDir({
      'agentcheck.config.yaml': 'scenarios: [suite]\nvariants:\n  neg: {set: {agent: {max_turns: -1}}}\n',
      'shop.yaml': SHOP,
      'suite/a.scenario.yaml': scenario('a', '../shop.yaml', 'refund'),
      'suite/b.scenario.yaml': scenario('b', '../shop.yaml', 'refund'),
    });
    const report = await validateFiles([], { config: 'agentcheck.config.yaml' }, dir);
    expect(report.problems.map((problem) => problem.message)).toEqual([
      expect.stringMatching(
        /agentcheck\.config\.yaml:3:34 at variants\.neg\.set\.agent\.max_turns: variant "neg" does not apply to the build shop\.yaml of scenario "suite\/a\.scenario\.yaml#a"/,
      ),
    ]);
    expect(report.counts.config).toBe(0);
  });

  it('still counts every scenario file and its scenarios as valid when a variant does not apply to their build', async () => {
    const scenarios = (...names: string[]) =>
      `defaults: {agent: ../shop.yaml}\nscenarios:\n${names.map((name) => `  - {name: ${name}, inputs: {messages: [{role: user, content: go}]}, expect: {terminal_tool: refund}}\n`).join('')}`;
    const files = {
      'shop.yaml': SHOP,
      'suite/a.scenarios.yaml': scenarios('a1', 'a2', 'a3'),
      'suite/b.scenarios.yaml': scenarios('b1', 'b2'),
      'suite/c.scenario.yaml': scenario('c', '../shop.yaml', 'refund'),
    };
    const good = await validateFiles([], { config: 'agentcheck.config.yaml' }, tempDir({ ...files, 'agentcheck.config.yaml': 'scenarios: [suite]\n' }));
    expect([good.problems, good.counts.scenario, good.scenarios]).toEqual([[], 3, 6]);
    const dir = tempDir({ ...files, 'agentcheck.config.yaml': 'scenarios: [suite]\nvariants:\n  lean: {remove: ["agent.tools[name=no_such_tool]"]}\n' });
    for (const report of [
      await validateFiles([], { config: 'agentcheck.config.yaml' }, dir),
      await validateFiles(['suite'], { config: 'agentcheck.config.yaml' }, dir),
    ]) {
      expect(report.problems.map((problem) => [problem.line, problem.path])).toEqual([[3, 'variants.lean.remove[0]']]);
      // The problem is the config's: the scenario files are as valid as with the good config.
      expect(report.counts.scenario).toBe(3);
      expect(report.scenarios).toBe(6);
      expect(report.counts.config).toBe(0);
    }
  });

  it("reports each of a variant's own problems beside the others, also when the scenario's delta does not load", async () => {
    const config =
      'scenarios: [suite]\nvariants:\n' +
      '  v1: {set: {agent: {"__proto__": {a: 1}, max_turns: "x"}}, remove: ["agent..y"]}\n' +
      '  v2: {remove: [5, "agent..z"], sett: 1}\n' +
      '  v3: {set: {agent: {"__proto__": {a: 1}}}, sett: 1}\n';
    const scenarioWith = (delta: string) => 'name: a\nagent: ../shop.yaml\ndelta: ../d.yaml\ninputs: {messages: [{role: user, content: go}]}\n' + delta;
    const files = { 'agentcheck.config.yaml': config, 'shop.yaml': SHOP, 'suite/a.scenario.yaml': scenarioWith('') };
    const own = [
      [3, 'variants.v1.set.agent.__proto__'],
      [3, 'variants.v1.remove[0]'],
      [4, 'variants.v2.remove[0]'],
      [4, 'variants.v2.remove[1]'],
      [4, 'variants.v2.sett'],
      [5, 'variants.v3.set.agent.__proto__'],
      [5, 'variants.v3.sett'],
    ];
    const good = await validateFiles([], { config: 'agentcheck.config.yaml' }, tempDir({ ...files, 'd.yaml': 'set: {agent: {max_turns: 3}}\n' }));
    // Applied to the build, v1 also fails on max_turns, said once with the variant's name.
    expect(good.problems.map((problem) => [problem.line, problem.path])).toEqual([own[0], [3, 'variants.v1.set.agent.max_turns'], ...own.slice(1)]);
    expect(good.problems[1].message).toContain('variant "v1" does not apply to the build shop.yaml of scenario "suite/a.scenario.yaml#a"');
    expect(good.problems.filter((problem) => problem.message.includes('__proto__'))).toHaveLength(2);
    expect(good.counts.config).toBe(0);
    // The scenario's own delta does not load: the variants are still the config's problems.
    const bad = await validateFiles([], { config: 'agentcheck.config.yaml' }, tempDir({ ...files, 'd.yaml': 'sett: 1\n' }));
    expect(bad.problems.filter((problem) => problem.file.endsWith('agentcheck.config.yaml')).map((problem) => [problem.line, problem.path])).toEqual(own);
    expect(bad.counts.config).toBe(0);
  });

  it('locates a variant removal that leaves the build invalid at its remove entry', async () => {
    const dir = tempDir({
      'agentcheck.config.yaml': 'scenarios: [suite]\nvariants:\n  noname: {remove: [agent.name]}\n',
      'shop.yaml': SHOP,
      'suite/a.scenario.yaml': scenario('a', '../shop.yaml', 'refund'),
    });
    const report = await validateFiles([], { config: 'agentcheck.config.yaml' }, dir);
    expect(report.problems.map((problem) => [problem.line, problem.path])).toEqual([[3, 'variants.noname.remove[0]']]);
    expect(report.problems[0].message).toContain(
      'variant "noname" does not apply to the build shop.yaml of scenario "suite/a.scenario.yaml#a": after applying the delta: removing "agent.name" leaves agent invalid: missing required key "name"',
    );
  });

  it("checks a variant against a valid scenario's build though another scenario of its file has a bad build, and does not count the config valid", async () => {
    const scenarioEntry = (name: string, agent: string) => `  - {name: ${name}, agent: ${agent}, inputs: {messages: [{role: user, content: go}]}}\n`;
    const dir = tempDir({
      'agentcheck.config.yaml': 'scenarios: [suite]\nvariants:\n  cyc:\n    set:\n      "agent.tools[name=b].chain.steps[0]": {tool: a}\n',
      'chained.yaml':
        'id: chained\nagent:\n  name: C\n  tools:\n    - {name: a, chain: {steps: [{tool: b}]}}\n    - {name: b, chain: {steps: [{tool: echo, inputs: {text: x}}]}}\n',
      'broken.yaml': 'id: broken\nagent: {name: B, foo: 1}\n',
      'suite/a.scenarios.yaml': `scenarios:\n${scenarioEntry('bad', '../broken.yaml')}${scenarioEntry('good', '../chained.yaml')}`,
    });
    const report = await validateFiles([], { config: 'agentcheck.config.yaml' }, dir);
    expect(report.problems.map((problem) => problem.file.replace(`${dir}/`, ''))).toEqual(['agentcheck.config.yaml', 'broken.yaml']);
    expect(report.problems[0].message).toContain(
      'variant "cyc" does not apply to the build chained.yaml of scenario "suite/a.scenarios.yaml#good": after applying the delta: "a" calls itself through a -> b -> a',
    );
    // At the call the variant wrote, where it is written in the config, not at the build's path.
    expect([report.problems[0].line, report.problems[0].path]).toEqual([5, 'variants.cyc.set.agent.tools[name=b].chain.steps[0].tool']);
    expect(report.counts.config).toBe(0);
  });

  it('locates a cycle a variant closes beside a removal, or by a rename, at its set entry, and a problem it makes where it did not write at the entry that makes it', async () => {
    const dir = tempDir({
      'agentcheck.config.yaml': [
        'scenarios: [suite]',
        'variants:',
        '  closes:',
        '    set: {"agent.tools[name=lookup]": {chain: {steps: [{tool: pl}]}}}',
        '    remove: ["agent.tools[name=lookup].returns"]',
        '  renames:',
        '    set: {"agent.tools[name=lookup].name": zz, "agent.tools[name=pl].name": lookup}',
        '  entry:',
        '    set: {agent.name: z, agent: {max_turns: 3}, flow.entry_point: b}',
        '',
      ].join('\n'),
      'both.yaml': [
        'id: both',
        'agent:',
        '  name: B',
        '  tools:',
        '    - {name: echo, builtin: echo}',
        '    - {name: finish, returns: {ok: true}}',
        '    - {name: lookup, returns: {found: true}}',
        '    - {name: ch, chain: {steps: [{tool: lookup}, {tool: finish}]}}',
        '    - {name: pl, plan: {steps: [{tools: [{name: ch}]}]}}',
        'flow:',
        '  entry_point: a',
        '  components:',
        '    - {name: a, type: deterministic_step, tool_name: echo, inputs: [{literal: hi, as: text}]}',
        '    - {name: b, type: deterministic_step, tool_name: echo, inputs: [{literal: hi, as: text}]}',
        '    - {name: c, type: deterministic_step, tool_name: finish}',
        '  routers: [{from: a, to: b}, {from: b, to: c}, {from: c, to: end}]',
        '',
      ].join('\n'),
      'suite/a.scenario.yaml': scenario('a', '../both.yaml', 'finish'),
    });
    const report = await validateFiles([], { config: 'agentcheck.config.yaml' }, dir);
    expect(report.problems.map((problem) => [problem.line, problem.path])).toEqual([
      [4, 'variants.closes.set.agent.tools[name=lookup].chain.steps[0].tool'],
      [7, 'variants.renames.set.agent.tools[name=pl].name'],
      [9, 'variants.entry.set.flow.entry_point'],
    ]);
    expect(report.problems[0].message).toContain('after applying the delta: "lookup" calls itself through lookup -> pl -> ch -> lookup');
    expect(report.problems[1].message).toContain('after applying the delta: "ch" calls itself through ch -> lookup -> ch');
    expect(report.problems[2].message).toContain(
      'variant "entry" does not apply to the build both.yaml of scenario "suite/a.scenario.yaml#a": after applying the delta: setting "flow.entry_point" leaves flow.components[0] invalid: component "a" is never reached',
    );
    expect(report.counts.config).toBe(0);
  });

  // A dataset whose rows cannot be expanded loads no scenario: the build its rows would all share
  // is still checked under each variant, so the config is not counted valid.
  const CHAINED =
    'id: chained\nagent:\n  name: C\n  tools:\n    - {name: a, chain: {steps: [{tool: b}]}}\n    - {name: b, chain: {steps: [{tool: echo, inputs: {text: x}}]}}\n';
  const CYCLE_CONFIG = 'scenarios: [suite]\nvariants:\n  cyc:\n    set:\n      "agent.tools[name=b].chain.steps[0]": {tool: a}\n';
  const rowsScenario = (dataset: string, content = 'go') =>
    `name: "row {{ vars.id }}"\nagent: ../chained.yaml\ndataset: ${dataset}\ninputs: {messages: [{role: user, content: "${content}"}]}\n`;
  it.each([
    ['a CSV row with the wrong number of fields', { 'suite/rows.csv': 'id\n1\n2,3\n' }, rowsScenario('rows.csv'), 'rows.csv:3: has 2 field(s); expected 1'],
    ['a dataset file that is missing', {}, rowsScenario('missing.csv'), 'dataset file not found'],
    ['a variable no row gives', {}, rowsScenario('[{id: "1"}, {id: "2"}]', '{{ vars.nope }}'), 'the row has no variable "nope"'],
  ])('checks a variant against the build of a dataset scenario with %s, and does not count the config valid', async (_case, extra, file, datasetProblem) => {
    const dir = tempDir({ 'agentcheck.config.yaml': CYCLE_CONFIG, 'chained.yaml': CHAINED, 'suite/a.scenario.yaml': file, ...extra });
    const report = await validateFiles([], { config: 'agentcheck.config.yaml' }, dir);
    expect(report.problems.map((problem) => problem.file.replace(`${dir}/`, ''))).toEqual(['agentcheck.config.yaml', 'suite/a.scenario.yaml']);
    // Named as written: the scenario no row expanded.
    expect(report.problems[0].message).toContain(
      'variant "cyc" does not apply to the build chained.yaml of scenario "suite/a.scenario.yaml#row {{ vars.id }}": after applying the delta: "a" calls itself through a -> b -> a',
    );
    expect(report.problems[1].message).toContain(datasetProblem);
    expect(report.counts).toMatchObject({ config: 0, agent: 1, scenario: 0 });
  });

  it("reports the build of a dataset scenario whose rows cannot be read beside the dataset's problem, unless a row would give it", async () => {
    const dir = tempDir({
      'suite/rows.csv': 'id\n1\n2,3\n',
      'suite/a.scenario.yaml': rowsScenario('rows.csv').replace('../chained.yaml', '../nobuild.yaml'),
      'suite/b.scenario.yaml': rowsScenario('rows.csv').replace('../chained.yaml', '"{{ vars.agent }}"'),
    });
    const report = await validateFiles(['suite'], {}, dir);
    expect(report.problems.map((problem) => `${problem.file.replace(`${dir}/`, '')} ${problem.path}`)).toEqual([
      'suite/a.scenario.yaml agent',
      'suite/a.scenario.yaml dataset',
      'suite/b.scenario.yaml dataset',
    ]);
    expect(report.problems[0].message).toContain('agent build not found');
  });

  it('reports the model override of a dataset scenario whose rows cannot be read as without a dataset, unless a row would give it', async () => {
    const files = {
      'chained.yaml': CHAINED,
      'suite/rows.csv': 'id\n1\n2,3\n',
      'suite/a.scenario.yaml': `${rowsScenario('rows.csv')}model: {provider: nosuchprov, model: x}\n`,
      'suite/b.scenario.yaml': `${rowsScenario('missing.csv')}model: {timeout_ms: 0, parameters: {temperature: 9}}\n`,
      'suite/c.scenario.yaml': `${rowsScenario('missing.csv')}model: {provider: "{{ vars.p }}", timeout_ms: "{{ vars.t }}"}\n`,
      // A templated key beside them leaves the others' checks (its parameters against its provider) as they are.
      'suite/d.scenario.yaml': `${rowsScenario('missing.csv')}model: {provider: openai, model: gpt-4o, timeout_ms: "{{ vars.t }}", parameters: {temperature: 9}}\n`,
    };
    const said = async (dir: string) =>
      (await validateFiles(['suite'], {}, dir)).problems.map(
        (problem) => `${problem.file.replace(`${dir}/`, '')} ${problem.path}: ${(problem.error as ConfigError).expected.split(':')[0]}`,
      );
    const withDataset = await said(tempDir(files));
    expect(withDataset).toEqual([
      'suite/a.scenario.yaml dataset: rows.csv',
      'suite/a.scenario.yaml model.provider: expected one of "scripted" | "openai" | "anthropic" | "openai-responses", got string "nosuchprov"',
      'suite/b.scenario.yaml dataset: dataset file not found',
      'suite/b.scenario.yaml model.timeout_ms: expected a number >= 1, got number 0',
      'suite/b.scenario.yaml model.parameters.temperature: expected a number <= 2, got number 9',
      'suite/c.scenario.yaml dataset: dataset file not found',
      'suite/d.scenario.yaml dataset: dataset file not found',
      'suite/d.scenario.yaml model.parameters.temperature: expected a number <= 2, got number 9',
    ]);
    // The same model problems, at the same paths and in the same words, as the scenarios say without a dataset.
    const noDataset = (text: string) => text.replace(/^dataset: .*\n/m, '').replace('{{ vars.id }}', 'x');
    const plain = await said(
      tempDir({
        ...files,
        'suite/a.scenario.yaml': noDataset(files['suite/a.scenario.yaml']),
        'suite/b.scenario.yaml': noDataset(files['suite/b.scenario.yaml']),
      }),
    );
    const comparable = (line: string) => !line.includes(' dataset: ') && !line.startsWith('suite/c') && !line.startsWith('suite/d');
    expect(withDataset.filter(comparable)).toEqual(plain.filter(comparable));
  });

  it("locates a variant's removal at its remove entry when set alone makes another problem at that place", async () => {
    const dir = tempDir({
      'agentcheck.config.yaml': 'scenarios: [suite]\nvariants:\n  v2: {set: {flow.entry_point: b}, remove: [flow.routers.0]}\n',
      'flow.yaml': [
        'id: f',
        'agent:',
        '  name: F',
        '  tools: [{name: echo, builtin: echo}, {name: finish, returns: {ok: true}}]',
        'flow:',
        '  entry_point: a',
        '  components:',
        '    - {name: a, type: deterministic_step, tool_name: echo, inputs: [{literal: x, as: text}]}',
        '    - {name: b, type: deterministic_step, tool_name: echo, inputs: [{literal: y, as: text}]}',
        '    - {name: c, type: deterministic_step, tool_name: finish}',
        '  routers: [{from: a, to: b}, {from: b, to: c}, {from: c, to: end}]',
        '',
      ].join('\n'),
      'suite/a.scenario.yaml': scenario('a', '../flow.yaml', 'finish'),
    });
    const report = await validateFiles([], { config: 'agentcheck.config.yaml' }, dir);
    expect(report.problems.map((problem) => [problem.line, problem.path])).toEqual([[3, 'variants.v2.remove[0]']]);
    expect(report.problems[0].message).toContain(
      'after applying the delta: removing "flow.routers.0" leaves flow.components[0] invalid: component "a" has no router',
    );
  });

  it('locates each problem of a variant with several removals at the removal that makes it', async () => {
    const dir = tempDir({
      'agentcheck.config.yaml': 'scenarios: [suite]\nvariants:\n  lean:\n    remove:\n      - agent.tools[name=t1]\n      - agent.tools[name=t2]\n',
      'tools.yaml':
        'id: tools\nagent:\n  name: T\n  tools:\n    - {name: t1, returns: 1}\n    - {name: t2, returns: 2}\n    - {name: t3, returns: 3}\n    - {name: c1, chain: {steps: [{tool: t1}]}}\n    - {name: c2, chain: {steps: [{tool: t2}]}}\n',
      'suite/a.scenario.yaml': scenario('a', '../tools.yaml', 't3'),
    });
    const report = await validateFiles([], { config: 'agentcheck.config.yaml' }, dir);
    const blamed = report.problems.map((problem) => `${problem.path} ${/leaves (\S+) invalid/.exec(problem.message)?.[1]}`);
    expect(blamed.sort()).toEqual(['variants.lean.remove[0] agent.tools[1].chain.steps[0].tool', 'variants.lean.remove[1] agent.tools[2].chain.steps[0].tool']);
  });

  it('checks scenario files given as paths with the agentcheck.config.yaml of the current folder, as run PATHS reads it', async () => {
    const dir = tempDir({
      'agentcheck.config.yaml': 'variants:\n  neg: {set: {agent: {max_turns: -1}}}\n',
      'shop.yaml': SHOP,
      'suite/a.scenario.yaml': scenario('a', '../shop.yaml', 'refund'),
    });
    const report = await validateFiles(['suite'], {}, dir);
    expect(report.problems).toHaveLength(1);
    expect(report.problems[0].message).toContain('variant "neg" does not apply to the build shop.yaml of scenario "suite/a.scenario.yaml#a"');
    // Without a config in the current folder the same file is valid.
    const bare = tempDir({ 'shop.yaml': SHOP, 'suite/a.scenario.yaml': scenario('a', '../shop.yaml', 'refund') });
    expect((await validateFiles(['suite'], {}, bare)).problems).toEqual([]);
  });

  it('reads each real file once through a symbolic link back to a folder above, as run does', async () => {
    const dir = tempDir({
      'agentcheck.config.yaml': 'scenarios: ["s"]\n',
      'shop.yaml': SHOP,
      's/a.scenario.yaml': scenario('a', '../shop.yaml', 'refund'),
      's/broken.scenario.yaml': 'name: [\n',
    });
    symlinkSync('..', join(dir, 's/up'));
    const report = await validateFiles(['s'], {}, dir);
    // One problem for the one broken file, whichever name reached it first.
    expect(report.problems).toHaveLength(1);
    expect(report.problems[0].message).toMatch(/broken\.scenario\.yaml:2:1: is not valid YAML\/JSON/);
    expect(report.counts).toEqual({ scenario: 1, agent: 1, skill: 0, config: 1 });
    expect(report.scenarios).toBe(1);
    // Two paths naming one file count it once too.
    const twice = await validateFiles(['s/a.scenario.yaml', 's/up/s/a.scenario.yaml'], {}, dir);
    expect(twice.counts.scenario).toBe(1);
  });

  it("refuses delays and time limits Node's timers cannot hold (they would fire at once)", async () => {
    const dir = tempDir({
      'shop.yaml': SHOP,
      'a.scenario.yaml': `${scenario('a', 'shop.yaml', 'refund')}timeout_ms: 99999999999\nmodel: {script: [{text: ok, delay_ms: 2147483648}]}\nmocks: {http: [{url: "https://x.test/", delay_ms: 99999999999}]}\n`,
    });
    const report = await validateFiles(['a.scenario.yaml'], {}, dir);
    expect(report.problems.map((problem) => `${problem.path}: ${(problem.error as ConfigError).expected}`)).toEqual([
      'timeout_ms: expected a number <= 2147483647, got number 99999999999',
      'model.script[0].delay_ms: expected a number <= 2147483647, got number 2147483648',
      'mocks.http[0].delay_ms: expected a number <= 2147483647, got number 99999999999',
    ]);
  });

  it("refuses a build's timers that Node cannot hold: model, command, http, chain backoff, MCP start, external", async () => {
    const big = 2147483648;
    const dir = tempDir({
      'tm.yaml': `id: tm
agent:
  name: TM
  llm: {provider: scripted, model: m, timeout_ms: ${big}}
  tools:
    - {name: g, description: d, parameters: {type: object}, command: {argv: [sh], timeout_ms: ${big}}}
    - {name: h, description: d, parameters: {type: object}, http: {method: GET, url: "https://x.test/a", timeout_ms: ${big}}}
    - {name: c, description: c, parameters: {type: object}, chain: {steps: [{tool: g, on_failure: {action: retry, max_retries: 2, backoff_ms: ${big}}}]}}
  mcps:
    - {name: m, command: [node, m.mjs], start_timeout_ms: ${big}}
`,
      'ext.yaml': `id: ext
external: {command: [node, a.mjs], timeout_ms: ${big}}
`,
    });
    const report = await validateFiles(['tm.yaml', 'ext.yaml'], {}, dir);
    expect(report.problems.map((problem) => `${problem.path}: ${(problem.error as ConfigError).expected}`).sort()).toEqual(
      [
        'agent.llm.timeout_ms',
        'agent.tools[0].command.timeout_ms',
        'agent.tools[1].http.timeout_ms',
        'agent.tools[2].chain.steps[0].on_failure.backoff_ms',
        'agent.mcps[0].start_timeout_ms',
        'external.timeout_ms',
      ]
        .map((path) => `${path}: expected a number <= 2147483647, got number ${big}`)
        .sort(),
    );
  });
});
