import { rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSuite } from '../../../src/runner/suite/load-suite.js';
import { validateFiles } from '../../../src/runner/validate/validate-files.js';
import type { ValidationReport } from '../../../src/runner/validate/validation-report.js';
import { tempDir } from '../../helpers/temp-dir.js';

const BOT = 'id: bot\nagent:\n  name: Bot\n  tools:\n    - {name: a, description: a, returns: 1}\n';
const BROKEN = 'id: b\nagent: {name: B, max_turns: 0}\n';
const INPUTS = 'inputs: {messages: [{role: user, content: hi}]}\nmodel: {script: [{text: ok}]}\n';
/** A variant that applies to no build of these tests: BOT has no tool zz. */
const VARIANT = 'variants:\n  v1: {remove: ["agent.tools[name=zz]"]}\n';

/** Each problem as `file:line path`, the file relative to the test folder. */
const where = (report: ValidationReport, dir: string) =>
  report.problems.map((problem) => `${problem.file.replace(`${dir}/`, '')}:${problem.line} ${problem.path}`);

describe("a scenario's own problems are reported beside a build that cannot be loaded", () => {
  it('check typos, missing folders and a mock URL, with a broken build or a missing one', async () => {
    const dir = tempDir({
      'broken.yaml': BROKEN,
      'checks.scenario.yaml': `name: s\nagent: broken.yaml\n${INPUTS}expect: {checks: [{outptu: {contains: x}}, {output: {contans: x}}]}\n`,
      'folders.scenario.yaml': `name: s\nagent: broken.yaml\nworkspace: nope-ws\nskills: {overlay: [nope-skill]}\n${INPUTS}mocks: {http: [{url: "https://x.test", json: {}}]}\n`,
      'missing.scenario.yaml': `name: s\nagent: nope.yaml\n${INPUTS}expect: {checks: [{outptu: {}}]}\n`,
    });
    const report = await validateFiles(['.'], {}, dir);
    expect(where(report, dir)).toEqual([
      'broken.yaml:2 agent.max_turns',
      'checks.scenario.yaml:5 expect.checks[0].outptu',
      'checks.scenario.yaml:5 expect.checks[1].output.contans',
      'folders.scenario.yaml:3 workspace',
      'folders.scenario.yaml:4 skills.overlay[0]',
      'folders.scenario.yaml:7 mocks.http[0].url',
      'missing.scenario.yaml:2 agent',
      'missing.scenario.yaml:5 expect.checks[0].outptu',
    ]);
    expect(report.problems.find((problem) => problem.path === 'mocks.http[0].url')?.message).toContain('"https://x.test/"');
  });
});

describe("a suite config's scenarios entries that name nothing are located problems beside the others'", () => {
  it("a path not there and a glob matching nothing, the other entries' files and another file checked all the same", async () => {
    const dir = tempDir({
      'suite/agent.yaml': BOT,
      'suite/sc/a.scenario.yaml': `name: s\nagent: ../agent.yaml\n${INPUTS}`,
      'suite/sc/bad.scenario.yaml': `name: s\nagent: ../agent.yaml\n${INPUTS}expect: {checks: [{outptu: {}}]}\n`,
      'suite/agentcheck.config.yaml': 'scenarios: [sc, nomatch, "zz/**"]\n',
      'other.scenario.yaml': `name: s\nagent: nope.yaml\n${INPUTS}`,
    });
    const report = await validateFiles(['suite', 'other.scenario.yaml'], {}, dir);
    expect(where(report, dir)).toEqual([
      'suite/agentcheck.config.yaml:1 scenarios[1]',
      'suite/agentcheck.config.yaml:1 scenarios[2]',
      'suite/sc/bad.scenario.yaml:5 expect.checks[0].outptu',
      'other.scenario.yaml:2 agent',
    ]);
    expect(report.problems.find((problem) => problem.path === 'scenarios[1]')?.message).toContain('path not found: nomatch; expected');
    expect(report.scenarios).toBe(1);
  });
});

describe('validate DIR checks the scenario files under DIR with the config run DIR reads: its own', () => {
  // The current folder's config has a problem of its own: run DIR passes it over.
  const ROOT_TYPO = 'model: {provider: scripted, model: x, parameters: {temprature: 1}}\n';
  const files = (root: string, own: string) => ({
    'agentcheck.config.yaml': root,
    'sub/agent.yaml': BOT,
    'sub/sc/a.scenario.yaml': `name: s\nagent: ../agent.yaml\n${INPUTS}`,
    'sub/agentcheck.config.yaml': own,
  });

  it("when none of its scenarios entries names a file: only its own problems, the current folder's config not read", async () => {
    for (const own of ['scenarios: [nomatch]\n', 'scenarios: ["x/*.yaml"]\n', 'scenarios: [nomatch, nomatch2]\n']) {
      const dir = tempDir(files(ROOT_TYPO, own));
      const report = await validateFiles(['sub'], {}, dir);
      expect(
        report.problems.map((problem) => problem.file),
        own,
      ).toEqual(report.problems.map(() => join(dir, 'sub/agentcheck.config.yaml')));
      expect(report.problems.length, own).toBeGreaterThan(0);
      expect(report.counts, own).toEqual({ scenario: 1, agent: 1, skill: 0, config: 0 });
    }
  });

  it("when its scenarios cannot be read: its problem alone, and the current folder's config, passed over, is not counted", async () => {
    const dir = tempDir(files('repeat: 1\n', 'scenarios: [sc, 5]\n'));
    const report = await validateFiles(['sub'], {}, dir);
    expect(where(report, dir)).toEqual(['sub/agentcheck.config.yaml:1 scenarios[1]']);
    expect(report.counts.config).toBe(0);
  });
});

describe('a path given that is a symbolic link to nothing', () => {
  it('is said to be one, naming its target, by validate and by loadSuite', async () => {
    const dir = tempDir({});
    symlinkSync('nowhere.scenario.yaml', join(dir, 'dangling.scenario.yaml'));
    const report = await validateFiles(['dangling.scenario.yaml'], {}, dir);
    expect(report.problems.map((problem) => problem.message)).toEqual([
      `dangling.scenario.yaml: is a symbolic link to nothing: its target "nowhere.scenario.yaml" ("${join(dir, 'nowhere.scenario.yaml')}") does not exist`,
    ]);
    expect(() => loadSuite({ paths: ['dangling.scenario.yaml'] }, dir)).toThrow(
      /dangling\.scenario\.yaml: is a symbolic link to nothing: its target "nowhere\.scenario\.yaml" .* does not exist; expected a scenario file/,
    );
  });
});

describe("an external build's missing command file is reported beside the other problems of external", () => {
  it('beside a bad timeout_ms, a reserved env name and a tool default that does not fit', async () => {
    const dir = tempDir({
      'timeout.yaml': 'id: b\nexternal:\n  command: [node, ./missing.mjs]\n  timeout_ms: -1\n',
      'env.yaml': 'id: b\nexternal:\n  command: [node, ./missing.mjs]\n  env: {OPENAI_API_KEY: x}\n',
      'tool.yaml':
        'id: b\nexternal:\n  command: [node, ./missing.mjs]\n  tools:\n    - {name: t, description: d, parameters: {type: object, properties: {x: {type: integer, default: "ten"}}}}\n',
    });
    for (const [file, other] of [
      ['timeout.yaml', 'external.timeout_ms'],
      ['env.yaml', 'external.env.OPENAI_API_KEY'],
      ['tool.yaml', 'external.tools[0].parameters.properties.x.default'],
    ]) {
      const report = await validateFiles([file], {}, dir);
      expect(report.problems.map((problem) => problem.path).sort(), file).toEqual(['external.command[1]', other].sort());
      expect(report.problems.find((problem) => problem.path === 'external.command[1]')?.message).toContain(
        `"./missing.mjs" does not exist: ./ and ../ paths of a command are relative to the build file's folder, so expected a file at ${join(dir, 'missing.mjs')}`,
      );
    }
  });
});

describe("a scenario's delta problem does not hide its model override's", () => {
  it('checks the override against the build without the delta when the delta leaves the llm alone', async () => {
    const dir = tempDir({
      'bot.yaml': BOT,
      't.scenarios.yaml': `defaults:
  agent: bot.yaml
  inputs: {messages: [{role: user, content: hi}]}
scenarios:
  - name: a
    delta: {remove: ["agent.tools[name=zz]"]}
    model: {script: [{text: ok}], parameters: {temprature: 1}}
  - name: c
    delta: {set: {agent: {max_turns: 0}}}
    model: {script: [{text: ok}], parameters: {temprature: 1}}
  - name: d
    delta: {set: {agent: {llm: {provider: openai, model: x}, max_turns: 0}}}
    model: {script: [{text: ok}], parameters: {temprature: 1}}
`,
    });
    const report = await validateFiles(['t.scenarios.yaml'], {}, dir);
    // d's delta changes the llm: what its parameters meet is unknown until the delta applies.
    expect(where(report, dir)).toEqual([
      't.scenarios.yaml:6 scenarios[0].delta.remove[0]',
      't.scenarios.yaml:7 scenarios[0].model.parameters.temprature',
      't.scenarios.yaml:9 scenarios[1].delta.set.agent.max_turns',
      't.scenarios.yaml:10 scenarios[1].model.parameters.temprature',
      't.scenarios.yaml:12 scenarios[2].delta.set.agent.max_turns',
    ]);
  });
});

describe("a suite config's problems, its variants' and its scenarios' in one pass", () => {
  const suite = (config: string, files: Record<string, string> = {}) =>
    tempDir({
      'bot.yaml': BOT,
      's.scenario.yaml': `name: s\nagent: bot.yaml\n${INPUTS}expect: {checks: [{outptu: {}}]}\n`,
      't.scenario.yaml': `name: t\nagent: bot.yaml\n${INPUTS}`,
      'agentcheck.config.yaml': config,
      ...files,
    });

  it("a model parameter typo hides neither the variant that cannot apply nor a scenario's check typo", async () => {
    const dir = suite(`${VARIANT}model: {parameters: {temprature: 1}}\n`);
    const report = await validateFiles(['.'], {}, dir);
    expect(where(report, dir).sort()).toEqual([
      'agentcheck.config.yaml:2 variants.v1.remove[0]',
      'agentcheck.config.yaml:3 model.parameters.temprature',
      's.scenario.yaml:5 expect.checks[0].outptu',
    ]);
    expect(report.counts.config).toBe(0);
  });

  it('a missing forced skill folder does not hide the variant, in the folder or given as --config', async () => {
    const dir = suite(`${VARIANT}skills: {forced: [./nope]}\n`);
    for (const report of [await validateFiles(['.'], {}, dir), await validateFiles([], { config: 'agentcheck.config.yaml' }, dir)]) {
      expect(where(report, dir).sort()).toEqual([
        'agentcheck.config.yaml:2 variants.v1.remove[0]',
        'agentcheck.config.yaml:3 skills.forced[0]',
        's.scenario.yaml:5 expect.checks[0].outptu',
      ]);
      expect(report.counts.config).toBe(0);
    }
  });

  it('does not judge a variant that changes the llm against a scenario whose model override did not apply', async () => {
    // Applied after the override, the variant removes the top_p it sets; without it, there is none to remove.
    const dir = tempDir({
      'bot.yaml': BOT,
      's.scenario.yaml': `name: s\nagent: bot.yaml\ninputs: {messages: [{role: user, content: hi}]}\nmodel: {script: [{text: ok}], parameters: {top_p: 1, temprature: 1}}\n`,
      'agentcheck.config.yaml': 'variants:\n  v1: {remove: ["agent.llm.parameters.top_p"]}\n',
    });
    const report = await validateFiles(['.'], {}, dir);
    expect(where(report, dir)).toEqual(['s.scenario.yaml:4 model.parameters.temprature']);
  });

  it('checks the variant against the build of the only scenario using it, though that scenario has a typo of its own', async () => {
    const dir = suite(VARIANT);
    rmSync(join(dir, 't.scenario.yaml'));
    const report = await validateFiles(['.'], {}, dir);
    expect(where(report, dir).sort()).toEqual(['agentcheck.config.yaml:2 variants.v1.remove[0]', 's.scenario.yaml:5 expect.checks[0].outptu']);
    expect(report.problems[0].message + report.problems[1].message).toContain(
      'variant "v1" does not apply to the build bot.yaml of scenario "s.scenario.yaml#s"',
    );
    expect(report.counts.config).toBe(0);
  });
});

describe('composite cycles', () => {
  it('three independent cycles are three problems of one validate run, each at its own tool', async () => {
    const dir = tempDir({
      'cycles.yaml': [
        'id: c',
        'agent:',
        '  name: C',
        '  tools:',
        '    - {name: pa, plan: {steps: [{tools: [{name: pb}]}]}}',
        '    - {name: pb, plan: {steps: [{tools: [{name: pa}]}]}}',
        '    - {name: self, chain: {steps: [{id: s, tool: self}]}}',
        '    - {name: self2, chain: {steps: [{id: s, tool: self2}]}}',
        '',
      ].join('\n'),
    });
    const report = await validateFiles(['cycles.yaml'], {}, dir);
    expect(where(report, dir)).toEqual([
      'cycles.yaml:5 agent.tools[0].plan.steps[0].tools[0].name',
      'cycles.yaml:7 agent.tools[2].chain.steps[0].tool',
      'cycles.yaml:8 agent.tools[3].chain.steps[0].tool',
    ]);
    expect(report.problems.map((problem) => /"\w+" calls itself through [\w >-]+;/.exec(problem.message)?.[0])).toEqual([
      '"pa" calls itself through pa -> pb -> pa;',
      '"self" calls itself through self -> self;',
      '"self2" calls itself through self2 -> self2;',
    ]);
  });

  it("wait for a build with no other problem, and never hide a skill's (docs/cli.md, validate)", async () => {
    const dir = tempDir({
      'skill.yaml':
        'id: c\nagent:\n  name: C\n  tools:\n    - {name: self, chain: {steps: [{tool: self}]}}\n  skills:\n    - {name: Bad Name, description: d, body: b}\n',
    });
    const report = await validateFiles(['skill.yaml'], {}, dir);
    expect(where(report, dir)).toEqual(['skill.yaml:7 agent.skills[0].name']);
  });
});

describe('a YAML merge key is one problem among the others of its file', () => {
  const merge = 'YAML merge keys (<<) are not supported; write the keys out';
  const scenarioAdvice = ", or share them through a scenarios file's defaults";

  it("in a scenario file, an agent build and a suite config, with a scenario file's own advice only", async () => {
    const dir = tempDir({
      'bot.yaml': BOT,
      'broken.yaml': 'id: b\n<<: {x: 1}\nagent: {name: B, max_turns: 0}\n',
      'a.scenario.yaml': `name: s\n<<: {description: y}\nagent: bot.yaml\n${INPUTS}nope: 1\nexpect: {terminal_tool: 5}\n`,
      'agentcheck.config.yaml': '<<: {repeat: 2}\nrepeat: 0\nbogus: 1\n',
    });
    const report = await validateFiles(['.'], {}, dir);
    expect(where(report, dir)).toEqual([
      'agentcheck.config.yaml:1 <<',
      'agentcheck.config.yaml:2 repeat',
      'agentcheck.config.yaml:3 bogus',
      'a.scenario.yaml:2 <<',
      'a.scenario.yaml:6 nope',
      'a.scenario.yaml:7 expect.terminal_tool',
      'broken.yaml:2 <<',
      // The key the merge key brought in is said at the merge key.
      'broken.yaml:2 x',
      'broken.yaml:3 agent.max_turns',
    ]);
    const messages = (file: string) =>
      report.problems.filter((problem) => problem.file.endsWith(file) && problem.path === '<<').map((problem) => problem.message);
    expect(messages('a.scenario.yaml')).toEqual([expect.stringMatching(new RegExp(`${merge}${scenarioAdvice}$`.replace(/[()]/g, '\\$&')))]);
    for (const file of ['broken.yaml', 'agentcheck.config.yaml'])
      expect(messages(file)).toEqual([expect.stringMatching(new RegExp(`${merge}$`.replace(/[()]/g, '\\$&')))]);
  });

  it("gives the defaults advice only for a merge key directly in a scenario, not in defaults or inside a scenario's key", async () => {
    const dir = tempDir({
      'bot.yaml': BOT,
      'm.scenarios.yaml': [
        '<<: {x: 1}',
        'defaults:',
        '  <<: {agent: bot.yaml}',
        '  model: {script: [{text: ok}]}',
        'scenarios:',
        '  - <<: {name: a}',
        '    inputs: {<<: {messages: [{role: user, content: hi}]}}',
        '',
      ].join('\n'),
      's.scenario.yaml': `<<: {name: s}\nagent: bot.yaml\n${INPUTS.replace('model: {', 'model: {<<: {}, ')}`,
      // A scenarios file by the list its top << brings in: the << is at a scenarios file's top.
      'v.scenarios.yaml': `<<:\n  scenarios:\n    - {name: v, agent: bot.yaml, ${INPUTS.trim().split('\n').join(', ')}}\n`,
    });
    const report = await validateFiles(['.'], {}, dir);
    const advised = report.problems
      .filter((problem) => problem.path?.endsWith('<<'))
      .map(
        (problem) =>
          `${problem.file.replace(`${dir}/`, '')}:${problem.line} ${problem.path} ${problem.message.endsWith(scenarioAdvice) ? 'advised' : 'written out'}`,
      );
    expect(advised).toEqual([
      'm.scenarios.yaml:1 << written out',
      'm.scenarios.yaml:3 defaults.<< written out',
      'm.scenarios.yaml:6 scenarios[0].<< advised',
      'm.scenarios.yaml:7 scenarios[0].inputs.<< written out',
      's.scenario.yaml:1 << advised',
      's.scenario.yaml:4 model.<< written out',
      'v.scenarios.yaml:1 << written out',
    ]);
    for (const problem of report.problems.filter((one) => one.path?.endsWith('<<') && !one.message.endsWith(scenarioAdvice)))
      expect(problem.message).toMatch(new RegExp(`${merge}$`.replace(/[()]/g, '\\$&')));
  });

  it('checks a scenario as if the merged keys were written out: none is missing, and the others are still checked', async () => {
    const dir = tempDir({
      'bot.yaml': BOT,
      'm.scenarios.yaml': `scenarios:\n  - &first {name: a, agent: bot.yaml, ${INPUTS.replace('\n', ', ').replace(/\n$/, '')}}\n  - <<: *first\n    name: b\n    bogus: 2\n`,
    });
    const report = await validateFiles(['.'], {}, dir);
    expect(where(report, dir)).toEqual(['m.scenarios.yaml:3 scenarios[1].<<', 'm.scenarios.yaml:5 scenarios[1].bogus']);
  });
});
