import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, ConfigErrors } from '../../../src/config/errors.js';
import { loadSuite } from '../../../src/runner/suite/load-suite.js';
import { emptySuiteConfig, loadSuiteConfig } from '../../../src/runner/suite/suite-config.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { configErrorOf } from '../../helpers/config-error.js';

const AGENT = 'id: bot\nagent:\n  name: Bot\n  tools: [{name: finish, returns: 1}]\n';
const scenario = (extra: string) => `name: s\nagent: agent.yaml\ninputs: {messages: [{role: user, content: go}]}\nmodel: {script: [{text: ok}]}\n${extra}`;

function loadError(files: Record<string, string>): ConfigError {
  const dir = tempDir(files);
  return configErrorOf(() => loadSuite({ paths: [dir], config: emptySuiteConfig(dir) }, dir));
}

describe('loading a suite', () => {
  it("reports every file's problems in one pass (each build once), not the first file's only", () => {
    const error = loadError({
      'agent.yaml': AGENT,
      'nulltool.yaml': 'id: n\nagent:\n  name: N\n  tools: [null]\n',
      'a.scenario.yaml': scenario('expect: {checks: [{custom: {modul: ./x.mjs}}, {judge: null}]}\n'),
      'b.scenario.yaml': scenario('').replace('agent: agent.yaml', 'agent: nulltool.yaml'),
      'c.scenario.yaml': scenario('').replace('agent: agent.yaml', 'agent: nulltool.yaml').replace('name: s', 'name: t'),
    });
    const lines = error.message.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/a\.scenario\.yaml:5:\d+ at expect\.checks\[0\]\.custom\.modul: unknown key "modul" \(did you mean "module"\?\)/);
    expect(lines[1]).toMatch(/a\.scenario\.yaml:5:\d+ at expect\.checks\[1\]\.judge: expected object, got null/);
    expect(lines[2]).toMatch(/nulltool\.yaml:4:\d+ at agent\.tools\[0\]: expected object, got null/);
  });
});

describe("names the scenario's delta took away", () => {
  it('say the delta removes or renames them, in checks, the terminal tool, the script and approvals', () => {
    const error = loadError({
      'agent.yaml': 'id: bot\nagent:\n  name: Bot\n  tools: [{name: finish, returns: 1}, {name: lookup, returns: 1, permission: ask}]\n',
      's.scenario.yaml': scenario(
        'delta: {remove: ["agent.tools[name=lookup]"]}\napprovals: {tools: {lookup: approve}}\nexpect: {terminal_tool: lookup, checks: [{tool_called: {tool: lookup}}]}\n',
      ).replace('{script: [{text: ok}]}', '{script: [{tool_calls: [{name: lookup}]}, {text: ok}]}'),
    });
    const lines = error.message.split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(4);
    for (const line of lines) expect(line).toContain("(the scenario's delta removes or renames it: names are held to the build after it)");
  });
});

describe('text fields holding only white space', () => {
  it('refuses a blank name, tag, expect_failure and skip reason, as it refuses an empty one, also from a dataset row', () => {
    const blank = 'expected text that is not blank (white space alone says nothing), got string';
    const error = loadError({
      'agent.yaml': AGENT,
      'a.scenario.yaml': scenario('tags: [" "]\nexpect_failure: "  "\nskip: " "\n').replace('name: s', 'name: "  "'),
      'b.scenario.yaml': scenario('dataset: [{n: "   "}]\n').replace('name: s', 'name: "{{ vars.n }}"'),
    });
    expect(error.message.split('\n').map((line) => /at (\S+): (.*)$/.exec(line)?.slice(1))).toEqual([
      ['name', `${blank} "  "`],
      ['tags[0]', `${blank} " "`],
      ['expect_failure', `${blank} "  "`],
      ['skip', `${blank} " "`],
      ['name', `${blank} "   " (dataset row dataset[0])`],
    ]);
  });
});

describe('tool_sequence calls written as plain tool names', () => {
  it('say what a call is and how to write it, one line per entry', () => {
    const error = loadError({
      'agent.yaml': AGENT,
      's.scenario.yaml': scenario('expect: {checks: [{tool_sequence: {calls: [finish, "a b", {tool: finish}]}}]}\n'),
    });
    expect(error.message.split('\n')).toEqual([
      expect.stringMatching(
        /s\.scenario\.yaml:5:\d+ at expect\.checks\[0\]\.tool_sequence\.calls\[0\]: expected an object \{tool, args\?, args_mode\?\}, got string "finish" \(write \{tool: finish\}\)$/,
      ),
      expect.stringMatching(
        /at expect\.checks\[0\]\.tool_sequence\.calls\[1\]: expected an object \{tool, args\?, args_mode\?\}, got string "a b" \(write \{tool: "a b"\}\)$/,
      ),
    ]);
  });

  it('a call of another wrong type is told the shape without a rewrite', () => {
    const error = loadError({ 'agent.yaml': AGENT, 's.scenario.yaml': scenario('expect: {checks: [{tool_sequence: {calls: [5]}}]}\n') });
    expect(error.message).toMatch(/at expect\.checks\[0\]\.tool_sequence\.calls\[0\]: expected an object \{tool, args\?, args_mode\?\}, got number 5$/);
  });
});

describe('a spans check', () => {
  it("reports a format problem of its count beside the query's own problems", () => {
    const error = loadError({
      'agent.yaml': AGENT,
      's.scenario.yaml': scenario(
        'expect:\n  checks:\n    - spans: {query: {filtering: {operator: and, conditions: [{field: name, operator: is, value: x, extra: 1}]}}, count: {maxx: 2}}\n',
      ),
    });
    expect(error.message.split('\n')).toEqual([
      expect.stringMatching(
        /s\.scenario\.yaml:7:\d+ at expect\.checks\[0\]\.spans\.query\.filtering\.conditions\[0\]\.extra: unknown key "extra"; expected one of: field, key, operator, value$/,
      ),
      expect.stringMatching(/s\.scenario\.yaml:7:\d+ at expect\.checks\[0\]\.spans\.count\.maxx: unknown key "maxx" \(did you mean "max"\?\)/),
    ]);
  });
});

describe('checks that can never hold', () => {
  it('a tool_order whose before names its after tool is refused at the before entry', () => {
    const error = loadError({ 'agent.yaml': AGENT, 's.scenario.yaml': scenario('expect: {checks: [{tool_order: {before: [finish], after: finish}}]}\n') });
    expect(error.file).toMatch(/s\.scenario\.yaml$/);
    expect(error.path).toBe('expect.checks[0].tool_order.before[0]');
    expect(error.message).toMatch(
      /s\.scenario\.yaml:5:\d+ at expect\.checks\[0\]\.tool_order\.before\[0\]: finish is also the after tool; a tool cannot run before its own first call \(for exactly one call, use tool_called with max: 1\)$/,
    );
  });
});

describe('files a scenario names', () => {
  it('a missing delta file or an agent that is a folder is reported where the scenario names it', () => {
    const missingDelta = loadError({ 'agent.yaml': AGENT, 'a.scenario.yaml': scenario('delta: nope.yaml\n') });
    expect(missingDelta.file).toMatch(/a\.scenario\.yaml$/);
    expect(missingDelta.path).toBe('delta');
    expect(missingDelta.message).toMatch(/at delta: delta file .*nope\.yaml: file not found$/);
    const folder = loadError({ 'agent.yaml': AGENT, 'sub/x.txt': '', 'a.scenario.yaml': scenario('').replace('agent: agent.yaml', 'agent: sub') });
    expect(folder.path).toBe('agent');
    expect(folder.message).toMatch(/a\.scenario\.yaml:2:\d+ at agent: agent build .*sub: is a folder; expected a YAML or JSON file$/);
    // An empty or non-mapping delta or build file is told the kind of file it is read as.
    const emptyDelta = loadError({ 'agent.yaml': AGENT, 'empty.yaml': '', 'a.scenario.yaml': scenario('delta: empty.yaml\n') });
    expect(emptyDelta.message).toMatch(/at delta: delta file .*empty\.yaml: expected a delta \(a mapping with set or remove\), got an empty file$/);
    const listDelta = loadError({ 'agent.yaml': AGENT, 'list.yaml': '- a\n', 'a.scenario.yaml': scenario('delta: list.yaml\n') });
    expect(listDelta.message).toMatch(
      /a\.scenario\.yaml:\d+:\d+ at delta: delta file .*list\.yaml: expected a delta \(a mapping with set or remove\), got an array$/,
    );
    const nullDelta = loadError({ 'agent.yaml': AGENT, 'null.json': 'null\n', 'a.scenario.yaml': scenario('delta: null.json\n') });
    expect(nullDelta.message).toMatch(
      /a\.scenario\.yaml:\d+:\d+ at delta: delta file .*null\.json: expected a delta \(a mapping with set or remove\), got null$/,
    );
    const listAgent = loadError({ 'list.yaml': '- a\n', 'a.scenario.yaml': scenario('').replace('agent: agent.yaml', 'agent: list.yaml') });
    expect(listAgent.message).toMatch(/a\.scenario\.yaml:2:\d+ at agent: agent build .*list\.yaml: expected an agent build .*, got an array$/);
    const emptyAgent = loadError({ 'empty.yaml': '# nothing\n', 'a.scenario.yaml': scenario('').replace('agent: agent.yaml', 'agent: empty.yaml') });
    expect(emptyAgent.message).toMatch(
      /at agent: agent build .*empty\.yaml: expected an agent build \(a mapping with id and agent or flow or external\), got an empty file$/,
    );
    const scenarioAsAgent = loadError({
      'b.scenario.yaml': scenario(''),
      'a.scenario.yaml': scenario('').replace('agent: agent.yaml', 'agent: b.scenario.yaml'),
    });
    expect(scenarioAsAgent.message).toMatch(/a\.scenario\.yaml:2:\d+ at agent: names a scenario file \(.*b\.scenario\.yaml\); expected an agent build/);
  });
});

describe("a scenario's agent, delta and model", () => {
  const pathsOf = (error: ConfigError) => error.message.split('\n').map((line) => /at ([^:]+):/.exec(line)?.[1]);

  it('a script typo hides neither a delta typo nor the delta paths checked against the build', () => {
    const error = loadError({
      'agent.yaml': AGENT,
      'a.scenario.yaml': 'name: s\nagent: agent.yaml\ninputs: {messages: [{role: user, content: go}]}\ndelta: {remov: [x]}\nmodel: {script: [{txt: ok}]}\n',
      'b.scenario.yaml':
        'name: s\nagent: agent.yaml\ninputs: {messages: [{role: user, content: go}]}\ndelta: {remove: [agent.nope]}\nmodel: {script: [{txt: ok}]}\n',
    });
    expect(pathsOf(error)).toEqual(['delta.remov', 'model.script[0].txt', 'delta.remove[0]', 'model.script[0].txt']);
    expect(error.message).toContain('path "agent.nope" does not exist: agent has no key "nope"');
  });

  it("a script typo does not hide the override's own problem, nor its names check", () => {
    const error = loadError({
      'agent.yaml': AGENT,
      'a.scenario.yaml': 'name: s\nagent: agent.yaml\ninputs: {messages: [{role: user, content: go}]}\nmodel: {provider: anthropic, script: [{txt: ok}]}\n',
      'b.scenario.yaml':
        'name: s\nagent: agent.yaml\ninputs: {messages: [{role: user, content: go}]}\nmodel: {script: [{txt: ok}]}\nexpect: {terminal_tool: finsh}\n',
    });
    expect(pathsOf(error)).toEqual(['model.provider', 'model.script[0].txt', 'model.script[0].txt', 'expect.terminal_tool']);
    expect(error.message).toContain('name its model too (model.model)');
  });

  it('a removal that leaves the build invalid is located at its entry of the inline delta', () => {
    const error = loadError({ 'agent.yaml': AGENT, 'a.scenario.yaml': scenario('delta: {remove: [agent.name]}\n') });
    expect(error.message).toMatch(
      /a\.scenario\.yaml:5:18 at delta\.remove\[0\]: after applying the delta: removing "agent\.name" leaves agent invalid: missing required key "name"$/,
    );
  });

  it("a build that cannot be loaded does not hide the delta's own problems (its format, its paths' syntax, a missing delta file)", () => {
    const error = loadError({
      'a.scenario.yaml':
        'name: s\nagent: nope.yaml\ninputs: {messages: [{role: user, content: go}]}\ndelta: {sett: {}, remove: ["agent..x"]}\nmodel: {script: [{txt: ok}]}\n',
      'b.scenario.yaml': 'name: s\nagent: nope.yaml\ninputs: {messages: [{role: user, content: go}]}\ndelta: nodelta.yaml\n',
      'c.scenario.yaml': 'name: s\nagent: nope.yaml\ninputs: {messages: [{role: user, content: go}]}\ndelta: {remove: ["agent..x"]}\n',
    });
    // The unknown key `sett` does not hide the syntax of the paths beside it.
    expect(pathsOf(error)).toEqual(['agent', 'delta.sett', 'delta.remove[0]', 'model.script[0].txt', 'agent', 'delta', 'agent', 'delta.remove[0]']);
    expect(error.message).toContain('agent build not found');
    expect(error.message).toMatch(/b\.scenario\.yaml:4:8 at delta: delta file .*nodelta\.yaml: file not found/);
    expect(error.message).toContain('cannot parse path "agent..x": empty key at character 7');
  });
});

describe('a missing skill folder', () => {
  it('is CONFIG_NOT_FOUND at the ref or config entry that names it (docs/skills.md), never "agent build not found"', () => {
    const error = loadError({
      'agent.yaml': 'id: bot\nagent:\n  name: Bot\n  skills: [{ref: ./no-such-skill}]\n',
      'a.scenario.yaml': scenario(''),
    });
    expect(error).toMatchObject({ code: 'CONFIG_NOT_FOUND', path: 'agent.skills[0].ref' });
    expect(error.message).toMatch(/agent\.yaml:4:\d+ at agent\.skills\[0\]\.ref: skill folder .*no-such-skill" does not exist/);
    const dir = tempDir({ 'agentcheck.config.yaml': 'skills:\n  forced: [./nope-skill]\n' });
    const config = configErrorOf(() => loadSuiteConfig(join(dir, 'agentcheck.config.yaml'), dir));
    expect(config).toMatchObject({ code: 'CONFIG_NOT_FOUND', path: 'skills.forced[0]', line: 2 });
  });
});

describe('the folders and modules a scenario names', () => {
  it('are each reported when missing, in one pass', () => {
    const error = loadError({
      'agent.yaml': AGENT,
      'a.scenario.yaml': scenario(
        'workspace: nows\nskills: {overlay: [nosk]}\nexpect: {checks: [{custom: {module: ./nomod.mjs}}, {custom: {module: ./nomod2.mjs}}]}\n',
      ),
    });
    expect(error.message.split('\n').map((line) => /at ([^:]+):/.exec(line)?.[1])).toEqual([
      'workspace',
      'skills.overlay[0]',
      'expect.checks[0].custom.module',
      'expect.checks[1].custom.module',
    ]);
  });
});

describe('scenario loading refuses what would otherwise fail later or silently', () => {
  it('a terminal_tool regex that could backtrack without bound, located at expect.terminal_tool', () => {
    const error = loadError({ 'agent.yaml': AGENT, 'a.scenario.yaml': scenario('expect: {terminal_tool: "/(a+)+/"}\n') });
    expect(error.path).toBe('expect.terminal_tool');
    expect(error.line).toBe(5);
  });

  it('a check item with a stray key beside its kind, naming the keys it holds', () => {
    const error = loadError({ 'agent.yaml': AGENT, 'a.scenario.yaml': scenario('expect: {checks: [{output: {contains: ok}, bogus: 1}]}\n') });
    expect(error.path).toBe('expect.checks[0]');
    expect(error.expected).toBe('expected at most 1 key(s), got 2: "output", "bogus"');
  });

  it('a skip of the wrong type is told it takes true, false or a reason, and what it got', () => {
    const error = loadError({ 'agent.yaml': AGENT, 'a.scenario.yaml': scenario('skip: 1\n') });
    expect([error.path, error.expected]).toEqual(['skip', 'expected true, false or a reason string, got number 1']);
    expect(loadError({ 'agent.yaml': AGENT, 'a.scenario.yaml': scenario('skip: ""\n') }).expected).toBe('expected a string of at least 1 character(s)');
  });

  it('an invalid terminal_tool regex', () => {
    expect(loadError({ 'agent.yaml': AGENT, 'a.scenario.yaml': scenario('expect: {terminal_tool: "/[/"}\n') }).path).toBe('expect.terminal_tool');
  });

  it("a workspace folder of the kernel's pseudo files (/sys, /proc, /dev), whose copy would never end", () => {
    const error = loadError({ 'agent.yaml': AGENT, 'a.scenario.yaml': scenario('workspace: /sys/kernel\n') });
    expect(error.path).toBe('workspace');
    expect(error.expected).toBe("workspace /sys/kernel is under /sys, whose files are the kernel's, not files to copy; expected a folder of ordinary files");
  });

  it('a path written as seen from the suite folder says it is relative to the scenario file, with a did-you-mean', () => {
    const body = 'name: s\nagent: agents/bot.yaml\ninputs: {messages: [{role: user, content: go}]}\nmodel: {script: [{text: ok}]}\nworkspace: ws\n';
    const error = loadError({ 'agents/bot.yaml': AGENT, 'ws/a.txt': 'x', 'scenarios/a.scenario.yaml': body });
    const [agent, workspace] = (error as ConfigErrors).errors;
    expect(agent!.expected).toMatch(
      /^agent build not found: .*scenarios\/agents\/bot\.yaml \(a path in a scenario is relative to the scenario file's folder, .*scenarios; did you mean \.\.\/agents\/bot\.yaml\?\)$/,
    );
    expect(workspace!.expected).toMatch(/^workspace folder not found: .*scenarios\/ws \(a path in a scenario is relative to .*; did you mean \.\.\/ws\?\)$/);
    // Nothing to suggest: the reason only.
    expect(loadError({ 'a.scenario.yaml': body }).message).toMatch(
      /agent build not found: .*agents\/bot\.yaml \(a path in a scenario is relative to the scenario file's folder, [^;]*\)/,
    );
  });

  it('an empty or blank message, as test-run --inputs refuses it, at its content (also from the defaults)', () => {
    for (const content of ['""', '"  "', '"\\n\\t"']) {
      const body = `name: s\nagent: agent.yaml\ninputs: {messages: [{role: user, content: hi}, {role: assistant, content: ${content}}]}\nmodel: {script: [{text: ok}]}\n`;
      const error = loadError({ 'agent.yaml': AGENT, 'a.scenario.yaml': body });
      expect([error.path, error.line, error.expected]).toEqual(['inputs.messages[1].content', 3, 'the message is empty; give the message text']);
    }
    const shared =
      'defaults:\n  agent: agent.yaml\n  inputs: {messages: [{role: user, content: " "}]}\nscenarios:\n  - {name: s, model: {script: [{text: ok}]}}\n';
    const error = loadError({ 'agent.yaml': AGENT, 'a.scenarios.yaml': shared });
    expect([error.path, error.line, error.expected]).toEqual(['defaults.inputs.messages[0].content', 3, 'the message is empty; give the message text']);
  });

  it('a workspace folder that does not exist', () => {
    const error = loadError({ 'agent.yaml': AGENT, 'a.scenario.yaml': scenario('workspace: nowhere\n') });
    expect(error.path).toBe('workspace');
    expect(error.message).toMatch(/workspace folder not found: .*nowhere/);
  });
});

describe('config scenario entries', () => {
  it('resolve from the config folder, also ../ globs, plain folders and files', () => {
    const dir = tempDir({
      'scen/agent.yaml': AGENT,
      'scen/one.scenario.yaml': scenario(''),
      'scen/deep/two.scenarios.yaml': `scenarios:\n  - ${scenario('').replace('agent: agent.yaml', 'agent: ../agent.yaml').replace(/\n/g, '\n    ').replace('name: s', 'name: t')}`,
      'conf/agentcheck.config.yaml': 'scenarios: ["../scen/*.scenario.yaml"]\n',
      'conf2/agentcheck.config.yaml': 'scenarios: ["../scen/**/*.scenarios.yaml", "../scen"]\n',
    });
    const glob = loadSuite({ paths: [], config: loadSuiteConfig(join(dir, 'conf/agentcheck.config.yaml')) }, dir);
    expect(glob.scenarios.map((s) => s.id)).toEqual(['../scen/one.scenario.yaml#s']);
    const both = loadSuite({ paths: [], config: loadSuiteConfig(join(dir, 'conf2/agentcheck.config.yaml')) }, dir);
    expect(both.scenarios.map((s) => s.id).sort()).toEqual(['../scen/deep/two.scenarios.yaml#t', '../scen/one.scenario.yaml#s']);
  });
});

describe('suite config variants that do not apply', () => {
  it('name the value the variant set by its path in the config file', () => {
    const dir = tempDir({
      'agent.yaml': AGENT,
      'a.scenario.yaml': scenario(''),
      'agentcheck.config.yaml': 'variants:\n  huge: {set: {agent: {max_turns: "many"}}}\n',
    });
    const config = loadSuiteConfig(join(dir, 'agentcheck.config.yaml'), dir);
    const error = configErrorOf(() => loadSuite({ paths: [], config }, dir));
    expect(error.path).toBe('variants.huge.set.agent.max_turns');
    expect(error.line).toBe(2);
    expect(error.message).toContain(
      'variant "huge" does not apply to the build agent.yaml of scenario "a.scenario.yaml#s": after applying the delta: expected integer',
    );
  });
});

describe('a variant that makes a composite cycle', () => {
  const NO_CYCLE =
    'id: nocyc\nagent:\n  name: C\n  tools:\n    - {name: echo, builtin: echo}\n    - {name: a, parameters: {type: object}, chain: {steps: [{id: s1, tool: b}]}}\n    - {name: b, parameters: {type: object}, chain: {steps: [{id: s1, tool: echo, inputs: {text: x}}]}}\n';
  const CLOSES_CYCLE = 'variants:\n  v:\n    set:\n      "agent.tools[name=b].chain.steps[0]": {tool: a, inputs: {}}\n';
  const entry = (name: string, agent: string) =>
    `  - {name: ${name}, agent: ${agent}, inputs: {messages: [{role: user, content: hi}]}, model: {script: [{text: done}]}}\n`;

  it('is said though another scenario of the same file has a build with problems of its own (cycles, an unknown key)', () => {
    for (const other of [
      'id: cyc\nagent:\n  name: C\n  tools:\n    - {name: p, parameters: {type: object}, chain: {steps: [{id: s1, tool: q}]}}\n    - {name: q, parameters: {type: object}, chain: {steps: [{id: s1, tool: p}]}}\n',
      'id: zz\nagent: {name: Z, foo: 1}\n',
    ]) {
      const dir = tempDir({
        'nocyc.yaml': NO_CYCLE,
        'other.yaml': other,
        'agentcheck.config.yaml': CLOSES_CYCLE,
        'a.scenarios.yaml': `scenarios:\n${entry('broken', 'other.yaml')}${entry('fine', 'nocyc.yaml')}`,
      });
      const error = configErrorOf(() => loadSuite({ paths: [], config: loadSuiteConfig(join(dir, 'agentcheck.config.yaml'), dir) }, dir));
      const messages = error instanceof ConfigErrors ? error.errors.map((one) => one.expected) : [error.expected];
      expect(messages).toContainEqual(
        expect.stringContaining(
          'variant "v" does not apply to the build nocyc.yaml of scenario "a.scenarios.yaml#fine": after applying the delta: "a" calls itself through a -> b -> a',
        ),
      );
      // The other build's own problems are still said beside it.
      expect(messages.some((message) => message.includes('"p" calls itself') || message.includes('unknown key "foo"'))).toBe(true);
    }
  });
});

describe('a file that is not a scenario file, or a misspelt scenarios key', () => {
  it('says a suite config is given with --config, and a misspelt scenarios list once', () => {
    const dir = tempDir({ 'agent.yaml': AGENT, 'agentcheck.config.yaml': 'repeat: 2\n' });
    const config = configErrorOf(() => loadSuite({ paths: [join(dir, 'agentcheck.config.yaml')], config: emptySuiteConfig(dir) }, dir));
    expect(config.message).toContain('agentcheck.config.yaml:1:1: is a suite config, not a scenario file: give it with --config FILE');
    const list = loadError({
      'agent.yaml': AGENT,
      's.scenarios.yaml':
        'defaults: {agent: agent.yaml}\nscenario:\n  - {name: a, inputs: {messages: [{role: user, content: go}]}, model: {script: [{text: ok}]}}\n',
    });
    expect(list.message).toBe(
      `${list.file}:2:1 at scenario: unknown key "scenario" (did you mean "scenarios"?): a file of several scenarios lists them under scenarios`,
    );
    // Named otherwise, a config or a delta is still told for what it is.
    const other = tempDir({ 'suite.yaml': 'variants: {lean: {remove: [agent.tools.0]}}\nrepeat: 2\n', 'lean.yaml': 'remove: [agent.tools.0]\n' });
    const named = (file: string) => configErrorOf(() => loadSuite({ paths: [join(other, file)], config: emptySuiteConfig(other) }, other)).message;
    expect(named('suite.yaml')).toContain('suite.yaml:1:1: is a suite config, not a scenario file: give it with --config FILE');
    expect(named('lean.yaml')).toContain('lean.yaml:1:1: is a delta {set, remove}, not a scenario file');
  });

  it("says a suite config named otherwise is one by its scenarios globs or its own keys, a <<'s among them, once", () => {
    const dir = tempDir({
      'globs.yaml': 'scenarios: ["s.scenario.yaml"]\nrepeat: 1\n',
      'only-globs.yaml': 'scenarios: ["*.scenario.yaml"]\n',
      'merged.yaml': '<<: {scenarios: ["*.scenario.yaml"]}\nrepeat: 2\n',
      'merged-keys.yaml': '<<: {repeat: 2, concurrency: 3}\n',
    });
    for (const file of ['globs.yaml', 'only-globs.yaml', 'merged.yaml', 'merged-keys.yaml']) {
      const error = configErrorOf(() => loadSuite({ paths: [join(dir, file)], config: emptySuiteConfig(dir) }, dir));
      expect(error.message, file).toBe(
        `${join(dir, file)}:1:1: is a suite config, not a scenario file: give it with --config FILE (run and validate read it from there)`,
      );
    }
    // A scenarios file (its list of mappings) with a stray config key is still a scenarios file with an unknown key.
    writeFileSync(join(dir, 'stray.yaml'), 'scenarios: [{name: a}]\nrepeat: 2\n');
    const stray = configErrorOf(() => loadSuite({ paths: [join(dir, 'stray.yaml')], config: emptySuiteConfig(dir) }, dir));
    expect(stray.message).toContain('unknown key "repeat"');
  });

  it('says once that --config was given a scenario file or an agent build, not each key unknown', () => {
    const dir = tempDir({
      'agent.yaml': AGENT,
      'a.scenario.yaml': scenario('tags: [smoke]\nexpect: {checks: [{output: {contains: ok}}]}\n'),
      'plain.yaml': scenario(''),
      'list.yaml': 'defaults: {agent: agent.yaml}\nscenarios:\n  - {name: a}\n',
    });
    const takes = '--config takes a suite config (agentcheck.config.yaml: scenarios, variants, repeat, concurrency, ...)';
    for (const file of ['a.scenario.yaml', 'plain.yaml', 'list.yaml']) {
      const error = configErrorOf(() => loadSuiteConfig(file, dir));
      expect(error.message).toBe(`${join(dir, file)}:1:1: is a scenario file, not a suite config: give it as a path (agentcheck run FILE); ${takes}`);
    }
    const build = configErrorOf(() => loadSuiteConfig('agent.yaml', dir));
    expect(build.message).toBe(
      `${join(dir, 'agent.yaml')}:1:1: is an agent build (id and agent at the top), not a suite config: ${takes}; to run a build once, use agentcheck test-run --agent FILE`,
    );
    // A config with a stray scenario key beside its own keys is still a config with an unknown key.
    const config = tempDir({ 'agentcheck.config.yaml': 'repeat: 2\nname: x\n' });
    expect(configErrorOf(() => loadSuiteConfig('agentcheck.config.yaml', config)).message).toContain('unknown key "name"');
    // So is one whose scenarios are globs, with a stray name or defaults beside them.
    for (const stray of ['name: x', 'defaults: {agent: agent.yaml}']) {
      const globs = tempDir({ 'agentcheck.config.yaml': `scenarios: ["suites"]\n${stray}\n` });
      const message = configErrorOf(() => loadSuiteConfig(undefined, globs)).message;
      expect(message).toContain(`unknown key "${stray.split(':')[0]}"`);
      expect(message).not.toContain('is a scenario file');
    }
    // A report.json is named as one.
    const reports = tempDir({ 'report.json': JSON.stringify({ schema: 'agentcheck.report/1', summary: {}, scenarios: [{ id: 'a#b' }] }) });
    expect(configErrorOf(() => loadSuiteConfig('report.json', reports)).message).toContain(
      "report.json:1:1: is a report.json (a run's results), not a suite config",
    );
  });
});

describe('a path or config glob that matches nothing beside others that do', () => {
  it('is refused, naming it, instead of dropping its scenarios silently', () => {
    const dir = tempDir({
      'agent.yaml': AGENT,
      'suite/a.scenario.yaml': scenario(''),
      'empty/notes.txt': 'x',
      'conf/agentcheck.config.yaml': 'scenarios: ["../suite/*.scenario.yaml", "../nothing/*.yaml", "../suite/a.scenario.yaml"]\n',
    });
    const paths = configErrorOf(() => loadSuite({ paths: [join(dir, 'suite'), join(dir, 'empty')], config: emptySuiteConfig(dir) }, dir));
    expect(paths.message).toContain('empty: holds no scenario file (*.scenario.yaml, *.scenarios.yaml), though the other paths given do');
    const config = configErrorOf(() => loadSuite({ paths: [], config: loadSuiteConfig(join(dir, 'conf/agentcheck.config.yaml'), dir) }, dir));
    expect(config.message).toMatch(/agentcheck\.config\.yaml:1:\d+ at scenarios\[1\]: matches no scenario file .*though the other entries do; check the glob/);
    // A file named twice (a glob and by name) is no empty entry.
    expect(config.message).not.toContain('scenarios[2]');
  });

  it('locates an entry naming a file or folder that is not there at the entry, with every other entry problem, alone or not', () => {
    const dir = tempDir({
      'agent.yaml': AGENT,
      'suite/a.scenario.yaml': scenario(''),
      'conf/agentcheck.config.yaml': 'scenarios: [../suite, ../gone, "../none/*.yaml", ../suite/gone.scenario.yaml]\n',
      'alone/agentcheck.config.yaml': 'scenarios: [gone]\n',
    });
    const config = configErrorOf(() => loadSuite({ paths: [], config: loadSuiteConfig(join(dir, 'conf/agentcheck.config.yaml'), dir) }, dir));
    // As written (read from the config's folder), with where an entry climbing out with .. landed.
    expect(config.message).toContain(
      `at scenarios[1]: path not found: ../gone (${join(dir, 'gone')}); expected a scenario file, a folder of scenario files or a glob, relative to the config's folder`,
    );
    expect(config.message).toMatch(/conf\/agentcheck\.config\.yaml:1:\d+ at scenarios\[1\]/);
    expect(config.message).toMatch(/at scenarios\[2\]: matches no scenario file/);
    expect(config.message).toMatch(/at scenarios\[3\]: path not found: \.\.\/suite\/gone\.scenario\.yaml \(/);
    // A glob matching nothing beside an entry that is not there is said too, in the same pass.
    writeFileSync(join(dir, 'conf/agentcheck.config.yaml'), 'scenarios: ["../none/*.yaml", ../gone]\n');
    const both = configErrorOf(() => loadSuite({ paths: [], config: loadSuiteConfig(join(dir, 'conf/agentcheck.config.yaml'), dir) }, dir));
    expect(both.message).toMatch(/at scenarios\[0\]: matches no scenario file \(\*\.scenario\.yaml, \*\.scenarios\.yaml\); check the glob/);
    expect(both.message).toMatch(/at scenarios\[1\]: path not found: \.\.\/gone/);
    const alone = configErrorOf(() => loadSuite({ paths: [], config: loadSuiteConfig(join(dir, 'alone/agentcheck.config.yaml'), dir) }, dir));
    expect(alone.message).toMatch(
      /alone\/agentcheck\.config\.yaml:1:\d+ at scenarios\[0\]: path not found: gone; expected .*, relative to the config's folder$/,
    );
    // An absolute entry is shown as written, not as a climb from the current folder.
    const absolute = join(dir, 'nowhere/abs');
    writeFileSync(join(dir, 'alone/agentcheck.config.yaml'), `scenarios: [${JSON.stringify(absolute)}]\n`);
    const abs = configErrorOf(() => loadSuite({ paths: [], config: loadSuiteConfig(join(dir, 'alone/agentcheck.config.yaml'), dir) }, dir));
    expect(abs.message).toContain(`at scenarios[0]: path not found: ${absolute}; expected a scenario file, a folder of scenario files or a glob`);
    expect(abs.message).not.toMatch(/\.\.\/|relative to/);
  });
});

describe('a scenario script', () => {
  it('refuses an empty script and an entry that answers nothing, which could only fail or answer with nothing', () => {
    const empty = loadError({ 'agent.yaml': AGENT, 'a.scenario.yaml': scenario('').replace('model: {script: [{text: ok}]}', 'model: {script: []}') });
    expect(empty.message).toMatch(/at model\.script: a script needs at least one entry, one per model call/);
    const blank = loadError({
      'agent.yaml': AGENT,
      'a.scenario.yaml': scenario('').replace('model: {script: [{text: ok}]}', 'model: {script: [{text: ok}, {}]}'),
    });
    expect(blank.message).toMatch(/at model\.script\[1\]: an entry needs text, tool_calls or error/);
  });

  it('refuses an entry that is both an answer and an error, and one whose only answer is an empty tool_calls list, each entry on its own', () => {
    const script =
      'model:\n  script:\n' +
      '    - {tool_calls: [{name: finish}], text: hi, error: {message: boom}}\n' +
      '    - {text: hi, error: {message: boom}}\n' +
      '    - {tool_calls: []}\n' +
      '    - {text: "", tool_calls: []}\n' +
      '    - {text: ""}\n' +
      '    - {error: {message: boom}, delay_ms: 1}\n';
    const error = loadError({ 'agent.yaml': AGENT, 'a.scenario.yaml': scenario('').replace('model: {script: [{text: ok}]}\n', script) });
    // The answer would be dropped without a word (the call fails); an empty list answers nothing, as {} does not.
    const both = 'an entry is either an answer (text and/or tool_calls) or an error, not both: a call that fails answers nothing';
    const empty =
      'an entry needs text, tool_calls or error: an empty tool_calls list answers nothing (give at least one call, or text: "" for an empty answer)';
    const lines = error.message.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/a\.scenario\.yaml:6:\d+ at model\.script\[0\]\.error: /);
    expect(lines[0]).toContain(both);
    expect(lines[1]).toMatch(/a\.scenario\.yaml:7:\d+ at model\.script\[1\]\.error: /);
    expect(lines[1]).toContain(both);
    expect(lines[2]).toMatch(/a\.scenario\.yaml:8:\d+ at model\.script\[2\]\.tool_calls: /);
    expect(lines[2]).toContain(empty);
  });
});

describe('expect_failure', () => {
  it('is refused on a scenario that expects nothing that could fail', () => {
    const error = loadError({ 'agent.yaml': AGENT, 'a.scenario.yaml': scenario('expect_failure: demo\n') });
    expect(error.message).toMatch(/at expect_failure: expects a failure, but the scenario expects nothing that could fail/);
  });
});

describe('expect_failure', () => {
  it('is refused on a scenario that expects nothing that could fail', () => {
    const error = loadError({ 'agent.yaml': AGENT, 'a.scenario.yaml': scenario('expect_failure: demo\n') });
    expect(error.message).toMatch(/at expect_failure: expects a failure, but the scenario expects nothing that could fail/);
  });
});

describe('scenario tags', () => {
  it('refuses a tag --tag could never select: with a comma, surrounding spaces or empty', () => {
    const error = loadError({ 'agent.yaml': AGENT, 'a.scenario.yaml': scenario('tags: [smoke, "a,b", " spaced ", ""]\n') });
    expect(error.message).toContain('at tags[1]: the tag "a,b" cannot be selected with --tag: expected a non-empty tag without commas or surrounding spaces');
    expect(error.message).toContain('at tags[2]: the tag " spaced "');
    expect(error.message).toContain('at tags[3]: expected a string of at least 1 character(s)');
    expect(error.message).not.toContain('tags[0]');
  });
});

describe('a misspelt agent key', () => {
  it('is the unknown key with its did-you-mean, never a crash, in a scenario, a list and defaults', () => {
    const one = loadError({ 'agent.yaml': AGENT, 'a.scenario.yaml': scenario('').replace('agent: agent.yaml', 'agnet: agent.yaml') });
    expect(one.message).toMatch(/a\.scenario\.yaml:2:1 at agnet: unknown key "agnet" \(did you mean "agent"\?\)/);
    const list = loadError({
      'agent.yaml': AGENT,
      'b.scenarios.yaml':
        'defaults:\n  agnet: agent.yaml\nscenarios:\n  - {name: s, inputs: {messages: [{role: user, content: go}]}, model: {script: [{text: ok}]}}\n',
    });
    expect(list.message).toMatch(/at defaults\.agnet: unknown key "agnet" \(did you mean "agent"\?\)/);
    expect(list.message).not.toMatch(/TypeError|paths\[1\]/);
  });
});

describe('a scenario file that holds no mapping', () => {
  it('says what it holds: an empty file, null or a list', () => {
    for (const [text, got] of [
      ['', 'an empty file'],
      ['# only a comment\n', 'an empty file'],
      ['null\n', 'null'],
      ['- a\n', 'an array'],
    ]) {
      const error = loadError({ 'agent.yaml': AGENT, 'a.scenario.yaml': text });
      expect(error.message).toMatch(
        new RegExp(
          `a\\.scenario\\.yaml(:1:1)?: expected a scenario \\(a mapping with name, agent, inputs\\) or \\{scenarios: \\[\\.\\.\\.\\], defaults: \\{\\.\\.\\.\\}\\}, got ${got}$`,
        ),
      );
    }
  });
});

describe('suite config variants written as delta files', () => {
  it('says a variant is an inline delta, not "expected object"', () => {
    const dir = tempDir({ 'lean.yaml': 'remove: [agent.tools.0]\n', 'agentcheck.config.yaml': 'variants:\n  lean: lean.yaml\n' });
    const error = configErrorOf(() => loadSuiteConfig(join(dir, 'agentcheck.config.yaml'), dir));
    expect(error.message).toMatch(
      /agentcheck\.config\.yaml:2:\d+ at variants\.lean: a variant is an inline delta \{set, remove\}; a delta file is not read here/,
    );
    expect(error.message).not.toContain('expected object');
  });

  it('says only "expected object" of a list of variant names, never taking a name for a delta file', () => {
    const dir = tempDir({ 'agentcheck.config.yaml': 'variants: [lean, wide]\n' });
    const error = configErrorOf(() => loadSuiteConfig(join(dir, 'agentcheck.config.yaml'), dir));
    expect(error.message).toMatch(/agentcheck\.config\.yaml:1:\d+ at variants: expected object, got an array/);
    expect(error.message).not.toContain('delta file');
    expect(error.message).not.toContain('variants.0');
  });
});

describe('suite config output folders', () => {
  it('refuses out and cassettes.dir where a file stands, located in the config (validate says so as run does)', () => {
    const dir = tempDir({ 'tapes.txt': '', 'agentcheck.config.yaml': 'out: tapes.txt\ncassettes: {mode: replay, dir: tapes.txt/sub}\n' });
    const error = configErrorOf(() => loadSuiteConfig(join(dir, 'agentcheck.config.yaml'), dir));
    expect(error.message).toMatch(/agentcheck\.config\.yaml:1:\d+ at out: must be a folder, but this is a file, not a folder/);
    expect(error.message).toMatch(/agentcheck\.config\.yaml:2:\d+ at cassettes\.dir: must be a folder, but .*tapes\.txt, above it, is a file, not a folder/);
  });
});

describe('suite config judge and scenarios', () => {
  it('refuses grader parameters the judge owns, an empty grader script and an empty scenarios list, located in the config', () => {
    const dir = tempDir({
      'agentcheck.config.yaml':
        'scenarios: []\njudge:\n  model: {provider: openai, model: g, parameters: {response_format: {type: text}, tool_choice: auto}}\n',
      'scripted/agentcheck.config.yaml': 'judge:\n  model: {provider: scripted, script: []}\n',
    });
    const error = configErrorOf(() => loadSuiteConfig(join(dir, 'agentcheck.config.yaml'), dir));
    expect(error.message).toMatch(/agentcheck\.config\.yaml:1:\d+ at scenarios: expected at least 1 item/);
    expect(error.message).toMatch(/agentcheck\.config\.yaml:3:\d+ at judge\.model\.parameters\.response_format: "response_format" is not for a grader/);
    expect(error.message).toMatch(/at judge\.model\.parameters\.tool_choice: "tool_choice" is not for a grader: a grader is sent no tools/);
    const empty = configErrorOf(() => loadSuiteConfig(join(dir, 'scripted/agentcheck.config.yaml'), dir));
    expect(empty.message).toMatch(/at judge\.model\.script: a grader script needs at least one answer/);
  });
});

describe('suite config reporters', () => {
  it('refuses an empty reporters list, located, as an empty --reporter is refused, instead of writing no report', () => {
    const dir = tempDir({ 'agentcheck.config.yaml': 'repeat: 1\nreporters: []\n' });
    const error = configErrorOf(() => loadSuiteConfig(join(dir, 'agentcheck.config.yaml'), dir));
    expect(error.message).toMatch(/agentcheck\.config\.yaml:2:\d+ at reporters: expected at least 1 item/);
  });
});

describe('suite config variant names', () => {
  it.each([
    ['an empty name', '"": {set: {agent: {max_turns: 2}}}', '""'],
    ['a name with a comma', '"x,y": {set: {agent: {max_turns: 2}}}', '"x,y"'],
    ['a name with "#"', '"a#1": {set: {agent: {max_turns: 2}}}', '"a#1"'],
  ])('refuses %s, which --variant could not select, naming the line', (_what, entry, shown) => {
    const dir = tempDir({ 'agentcheck.config.yaml': `variants:\n  ${entry}\n` });
    const error = configErrorOf(() => loadSuiteConfig(join(dir, 'agentcheck.config.yaml'), dir));
    expect(error.message).toContain(`the variant name ${shown} cannot be selected with --variant`);
    expect(error.message).toContain('agentcheck.config.yaml:2');
  });

  it('reports every bad name, the reserved one and the format problems of the file in one pass', () => {
    const dir = tempDir({
      'agentcheck.config.yaml': [
        'repeat: 0',
        'variants:',
        '  "bad,name": {set: {agent: {max_turns: 2}}}',
        '  " spaced": {set: {agent: {max_turns: 2}}}',
        '  base: {}',
        '  weird: {add: 1}',
        'skills: {overlay: [no-such-folder]}',
        '',
      ].join('\n'),
    });
    const error = configErrorOf(() => loadSuiteConfig(join(dir, 'agentcheck.config.yaml'), dir));
    const lines = error.message.split('\n');
    expect(lines).toHaveLength(6);
    expect(lines[0]).toMatch(/agentcheck\.config\.yaml:1:\d+ at repeat: /);
    expect(lines[1]).toMatch(/:3:\d+ at variants\.bad,name: the variant name "bad,name" cannot be selected/);
    expect(lines[2]).toMatch(/:4:\d+ at variants\[" spaced"\]: the variant name " spaced" cannot be selected/);
    expect(lines[3]).toMatch(/:5:\d+ at variants\.base: the variant name "base" is reserved/);
    // A variant's delta format is the config's problem, said once, not as "does not apply" per build.
    expect(lines[4]).toMatch(/:6:\d+ at variants\.weird\.add: unknown key "add"/);
    expect(lines[5]).toMatch(/:7:\d+ at skills\.overlay\[0\]: /);
  });
});

describe('scenario files that say something else', () => {
  it('an agent build given as a scenario file is named as one, in one line', () => {
    const dir = tempDir({ 'agent.yaml': AGENT });
    const error = configErrorOf(() => loadSuite({ paths: [join(dir, 'agent.yaml')], config: emptySuiteConfig(dir) }, dir));
    expect(error.message.split('\n')).toHaveLength(1);
    expect(error.message).toContain('is an agent build (id and agent at the top), not a scenario file');
    expect(error.message).toContain('agentcheck test-run --agent FILE');
    // Its keys brought in by a YAML merge key make it no less a build: refused once, without the merge key's problem.
    const merged = tempDir({ 'mb.yaml': '<<: {id: mb, agent: {name: MB}}\n', 'md.yaml': 'set: {x: 1}\n<<: {remove: [agent.tools.0]}\n' });
    const refused = (file: string) => configErrorOf(() => loadSuite({ paths: [join(merged, file)], config: emptySuiteConfig(merged) }, merged)).message;
    expect(refused('mb.yaml')).toBe(
      `${join(merged, 'mb.yaml')}:1:1: is an agent build (id and agent at the top), not a scenario file: run takes scenario files (*.scenario.yaml, *.scenarios.yaml) or folders of them; to run a build once, use agentcheck test-run --agent FILE`,
    );
    expect(refused('md.yaml')).toBe(
      `${join(merged, 'md.yaml')}:1:1: is a delta {set, remove}, not a scenario file: a scenario names it in delta:, test-run takes it with --delta FILE`,
    );
  });

  it('a YAML merge key is named as such in one line, without the missing keys it leaves behind', () => {
    const error = loadError({
      'agent.yaml': AGENT,
      'm.scenarios.yaml': [
        'defaults: {model: {script: [{text: ok}]}}',
        'scenarios:',
        '  - &first {name: a, agent: agent.yaml, inputs: {messages: [{role: user, content: go}]}}',
        '  - <<: *first',
        '    name: b',
        '',
      ].join('\n'),
    });
    expect(error.message.split('\n')).toEqual([
      expect.stringMatching(
        /m\.scenarios\.yaml:4:5 at scenarios\[1\]\.<<: YAML merge keys \(<<\) are not supported; write the keys out, or share them through a scenarios file's defaults$/,
      ),
    ]);
  });

  it('refuses an empty skip reason, as an empty expect_failure (it would read as skip and run)', () => {
    const error = loadError({ 'agent.yaml': AGENT, 'a.scenario.yaml': scenario('skip: ""\n') });
    expect(error.message).toMatch(/a\.scenario\.yaml:5:7 at skip: expected a string of at least 1 character/);
  });

  it('refuses a dataset template in a mapping key, which would be sent as it stands', () => {
    const error = loadError({
      'agent.yaml': AGENT,
      'a.scenario.yaml': `${scenario('dataset: [{n: "1"}]\nmocks: {http: [{url: "https://x.test", json: {"{{ vars.n }}": "v{{ vars.n }}"}}]}\n').replace('name: s', 'name: "s {{ vars.n }}"')}`,
    });
    expect(error.message).toContain(
      'at mocks.http[0].json["{{ vars.n }}"]: a {{ vars.* }} template in a key is not rendered (keys are names); put the template in a value',
    );
  });
});

describe('a suite config file that holds no mapping', () => {
  it('is refused when it writes null or a list, naming the kind of file; empty or comments only is a config with no settings', () => {
    const dir = tempDir({ 'null.yaml': '~\n', 'null.json': 'null\n', 'list.yaml': '- 1\n', 'empty.yaml': '', 'comments.yaml': '# nothing yet\n' });
    const expected = 'expected a suite config (a mapping with scenarios, variants, repeat, ...; empty for none)';
    for (const [file, holds] of [
      ['null.yaml', 'null'],
      ['null.json', 'null'],
      ['list.yaml', 'an array'],
    ]) {
      expect(configErrorOf(() => loadSuiteConfig(join(dir, file), dir)).message).toBe(`${join(dir, file)}:1:1: ${expected}, got ${holds}`);
    }
    for (const file of ['empty.yaml', 'comments.yaml']) expect(loadSuiteConfig(join(dir, file), dir).variants).toEqual(emptySuiteConfig(dir).variants);
  });
});
