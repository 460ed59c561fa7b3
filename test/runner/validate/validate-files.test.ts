import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_NAMES } from '../../../src/runner/suite/selection-names.js';
import { validateFiles } from '../../../src/runner/validate/validate-files.js';
import { tempDir } from '../../helpers/temp-dir.js';

describe('validateFiles on a folder', () => {
  it('reports a build with a misspelled top-level key instead of skipping it, and leaves other YAML alone', async () => {
    const dir = tempDir({
      'typo.yaml': 'id: bot\nagnet:\n  name: Bot\n',
      'ok.yaml': 'id: bot\nagent:\n  name: Bot\n',
      'other.yaml': 'id: 3\nkind: something else\n',
      'empty.yaml': '',
    });
    const report = await validateFiles(['.'], {}, dir);
    expect(report.counts.agent).toBe(1);
    expect(report.problems).toHaveLength(1);
    // `agent` is no longer required on its own (an `external` build has none): the typo itself is reported.
    expect(report.problems[0].message).toMatch(/typo\.yaml:2:1 at agnet: unknown key "agnet" \(did you mean "agent"\?\); expected one of: .*agent.*external/);
  });

  it('checks a file named on the command line as run takes it: a build when it has id and a build key and no name, else a scenario', async () => {
    const dir = tempDir({
      'bot.yaml': 'id: bot\nagent:\n  name: Bot\n  tools: [{name: t, returns: 1}]\n',
      'typo.yaml': 'id: bot\nagnet:\n  name: Bot\n',
      'x.yaml': 'name: x\nagent: bot.yaml\ninputs: {messages: [{role: user, content: hi}]}\nmodel: {script: [{text: ok}]}\n',
      'empty.yaml': '',
    });
    const report = await validateFiles(['bot.yaml', 'typo.yaml', 'x.yaml'], {}, dir);
    expect(report.counts).toMatchObject({ agent: 1, scenario: 1 });
    expect(report.problems.map((problem) => problem.message)).toEqual([
      expect.stringMatching(/typo\.yaml:2:1 at agnet: unknown key "agnet" \(did you mean "agent"\?\)/),
    ]);
    // Anything else is a scenario file to run's eyes, and is checked as one.
    const empty = await validateFiles(['empty.yaml'], {}, dir);
    expect(empty.problems.map((problem) => problem.message)).toEqual([expect.stringContaining('expected a scenario (a mapping with name, agent, inputs)')]);
  });

  it("refuses an empty folder given beside paths that hold files, in run's words", async () => {
    const dir = tempDir({ 'ok.yaml': 'id: bot\nagent:\n  name: Bot\n', 'empty/notes.txt': 'x' });
    const report = await validateFiles(['ok.yaml', 'empty'], {}, dir);
    expect(report.problems.map((problem) => problem.message)).toEqual([
      'empty: holds no scenario file (*.scenario.yaml, *.scenarios.yaml), though the other paths given do; give only folders that hold scenarios',
    ]);
  });

  it('refuses a folder holding only YAML that is no agentcheck file beside paths that hold files, as run does', async () => {
    const dir = tempDir({
      'agent.yaml': 'id: bot\nagent:\n  name: Bot\n',
      's.scenario.yaml': 'name: s\nagent: agent.yaml\ninputs: {messages: [{role: user, content: hi}]}\nmodel: {script: [{text: ok}]}\n',
      'other/x.yaml': 'x: 1\n',
      'more/y.json': '{"y": 1}\n',
    });
    for (const paths of [
      ['other', 's.scenario.yaml'],
      ['other', 'agent.yaml'],
    ]) {
      const report = await validateFiles(paths, {}, dir);
      expect(report.problems.map((problem) => problem.message)).toEqual([
        'other: holds no scenario file (*.scenario.yaml, *.scenarios.yaml), though the other paths given do; give only folders that hold scenarios',
      ]);
    }
    const two = await validateFiles(['other', 'more', 's.scenario.yaml'], {}, dir);
    expect(two.problems.map((problem) => problem.message)).toEqual([
      expect.stringContaining('other: holds no scenario file (*.scenario.yaml, *.scenarios.yaml), though the other paths given do (nor do more)'),
    ]);
  });

  it('refuses a suite config without scenarios globs whose folder holds no scenario file, as run says there is nothing to run', async () => {
    const dir = tempDir({ 'c/agentcheck.config.yaml': 'repeat: 1\n', 'c/agent.yaml': 'id: bot\nagent:\n  name: Bot\n' });
    for (const report of [await validateFiles([], { config: 'c/agentcheck.config.yaml' }, dir), await validateFiles(['c'], {}, dir)]) {
      expect(report.problems.map((problem) => problem.message)).toEqual([
        `${join(dir, 'c/agentcheck.config.yaml')}: no scenarios to run under c (scenario files are named *.scenario.yaml or *.scenarios.yaml)`,
      ]);
      expect(report.counts.config).toBe(0);
    }
  });

  it('takes a misspelt id or a near miss of another build key, and an agent mapping, for a build', async () => {
    const dir = tempDir({
      'idd.yaml': 'idd: a\nagent:\n  name: A\n',
      'ext.yaml': 'id: a\nextrnal: {command: [x]}\n',
      'folder/ext.yaml': 'id: a\nextrnal: {command: [x]}\n',
    });
    const named = await validateFiles(['idd.yaml', 'ext.yaml'], {}, dir);
    expect(named.problems.map((problem) => problem.message)).toEqual([
      expect.stringMatching(/idd\.yaml:1:1 at idd: unknown key "idd" \(did you mean "id"\?\)/),
      expect.stringMatching(/ext\.yaml:2:1 at extrnal: unknown key "extrnal" \(did you mean "external"\?\)/),
    ]);
    // In a folder too, not skipped as some other YAML.
    const folder = await validateFiles(['folder'], {}, dir);
    expect(folder.problems.map((problem) => problem.message)).toEqual([expect.stringMatching(/did you mean "external"\?/)]);
  });

  it('lists an invalid build once, also when the scenario files using it fail with its problem', async () => {
    const scenarios = (name: string) =>
      `defaults:\n  agent: agent.yaml\nscenarios:\n  - name: ${name}\n    inputs: {messages: [{role: user, content: hi}]}\n    model: {script: [{text: ok}]}\n    expect: {checks: [{output: {contains: ok}}]}\n`;
    const dir = tempDir({
      'agent.yaml':
        'id: x\nagent:\n  name: X\n  llm: {provider: scripted, model: m}\n  tools:\n    - {name: a, description: A, returns: {ok: true}, bogus: 1}\n',
      'one.scenarios.yaml': scenarios('one'),
      'two.scenarios.yaml': scenarios('two'),
    });
    const report = await validateFiles(['.'], {}, dir);
    expect(report.problems.map((problem) => [problem.file, problem.line, problem.path])).toEqual([[join(dir, 'agent.yaml'), 6, 'agent.tools[0].bogus']]);
    expect(report.counts).toEqual({ scenario: 0, agent: 0, skill: 0, config: 0 });
  });

  it('reports a build in a folder that does not parse (a missing bracket), instead of skipping it as some other YAML', async () => {
    const dir = tempDir({
      'agents/bot.yaml': 'id: bot\nagent:\n  name: b\n  tools: [{name: x, returns: 1}\n',
      'agents/bot.json': '{"id": "bot", "agent": {"name": "b",}}',
      'helm/template.yaml': 'kind: Deployment\nmetadata: {{ .Values.name }\n',
    });
    const report = await validateFiles(['.'], {}, dir);
    expect(report.problems.map((problem) => problem.file).sort()).toEqual([join(dir, 'agents/bot.json'), join(dir, 'agents/bot.yaml')]);
    expect(report.problems.find((problem) => problem.file.endsWith('bot.yaml'))?.message).toMatch(/bot\.yaml:\d+:\d+: is not valid YAML\/JSON/);
    // Alone in a folder, it is still reported, not "no agentcheck files found".
    const alone = tempDir({ 'bot.yaml': 'id: bot\nagent:\n  name: b\n  tools: [{name: x, returns: 1}\n' });
    expect((await validateFiles(['.'], {}, alone)).problems).toHaveLength(1);
  });

  it("reports every problem of a build's skills and of a SKILL.md in one pass", async () => {
    const dir = tempDir({
      'inline.yaml': 'id: x\nagent:\n  name: X\n  skills: [{name: BAD, description: 5}, {name: ok, description: ""}]\n',
      'refs.yaml': 'id: y\nagent:\n  name: Y\n  skills: [{ref: skills/nope}, {ref: skills/nope2}]\n',
      'skills/bad/SKILL.md': '---\nname: Bad_Name\ndescription: ""\n---\nbody\n',
    });
    const report = await validateFiles(['.'], {}, dir);
    const where = report.problems.map((problem) => `${problem.file.slice(dir.length + 1)} ${problem.path}`);
    expect(where).toEqual(
      expect.arrayContaining([
        'inline.yaml agent.skills[0].name',
        'inline.yaml agent.skills[0].description',
        'inline.yaml agent.skills[1].description',
        'refs.yaml agent.skills[0].ref',
        'refs.yaml agent.skills[1].ref',
        'skills/bad/SKILL.md name',
        'skills/bad/SKILL.md description',
      ]),
    );
    expect(where).toHaveLength(7);
  });

  it('reports a missing skill ref and a broken SKILL.md beside a format problem of a tool, each ref at its own line', async () => {
    const dir = tempDir({
      'bot.yaml':
        'id: bot\nagent:\n  name: b\n  tools:\n    - {name: t9, description: x, returns: 1, colour: 1}\n  skills:\n    - ref: ./skills/nope\n    - ref: ./skills/bad\n    - ref: 5\n',
      'skills/bad/SKILL.md': '---\nname: Bad_Name\ndescription: x\n---\nbody\n',
    });
    const report = await validateFiles(['bot.yaml'], {}, dir);
    expect(report.problems.map((problem) => `${problem.file.slice(dir.length + 1)}:${problem.line} ${problem.path}`)).toEqual([
      'bot.yaml:5 agent.tools[0].colour',
      'bot.yaml:7 agent.skills[0].ref',
      'bot.yaml:9 agent.skills[2].ref',
      'skills/bad/SKILL.md:2 name',
    ]);
    expect(report.problems[1].message).toContain(
      `skill folder "${join(dir, 'skills/nope')}" does not exist; expected a folder that holds SKILL.md (a ref is relative to the file that holds it)`,
    );
    expect(report.problems[2].message).toContain('expected string, got number 5');
  });

  it("lists a scenario's broken skill folder problem by problem, at SKILL.md's own lines, with a did-you-mean for a misspelt key", async () => {
    const dir = tempDir({
      'agent.yaml': 'id: a\nagent:\n  name: A\n',
      'k.scenario.yaml': 'name: k\nagent: agent.yaml\ninputs: {messages: [{role: user, content: hi}]}\nskills: {overlay: [./skills/bad, ./skills/nope]}\n',
      'skills/bad/SKILL.md': '---\nname: Bad Skill\ndescrption: x\n---\nbody\n',
    });
    const report = await validateFiles(['k.scenario.yaml'], {}, dir);
    expect(report.problems.map((problem) => `${problem.file.slice(dir.length + 1)}:${problem.line} ${problem.path}`)).toEqual([
      'skills/bad/SKILL.md:2 name',
      'skills/bad/SKILL.md:3 descrption',
      'k.scenario.yaml:4 skills.overlay[1]',
    ]);
    expect(report.problems[1].message).toContain('unknown key "descrption" (did you mean "description"?)');
  });

  it("takes overlay folders as run does: they count for load_skill, are checked first, and only the CLI's names point at --overlay", async () => {
    const dir = tempDir({
      'agent.yaml': 'id: a\nagent:\n  name: A\n  skills: [{name: release, description: R., disable_model_invocation: true, body: b}]\n',
      'x.scenario.yaml':
        'name: x\nagent: agent.yaml\ninputs: {messages: [{role: user, content: hi}]}\nskills: {delivery: on_demand}\nmodel: {script: [{tool_calls: [{name: load_skill, args: {name: good}}]}, {text: ok}]}\n',
      'skills/good/SKILL.md': '---\nname: good\ndescription: A good skill.\n---\nbody\n',
    });
    const none = "every skill this scenario's run delivers has disable_model_invocation: true (release), so the model may load none";
    // A library caller (MCP validate) has no --overlay to give: the refusal does not name it.
    const library = await validateFiles(['x.scenario.yaml'], {}, dir);
    expect(library.problems.map((problem) => problem.message.endsWith(none))).toEqual([true]);
    const cli = await validateFiles(['x.scenario.yaml'], {}, dir, CLI_NAMES);
    expect(cli.problems.map((problem) => problem.message)).toEqual([
      expect.stringContaining(`${none}; skill folders given with --overlay count too (validate takes them as run does)`),
    ]);
    const overlaid = await validateFiles(['x.scenario.yaml'], { overlay: ['skills/good'] }, dir, CLI_NAMES);
    expect(overlaid).toMatchObject({ problems: [], counts: { scenario: 1, skill: 1 }, scenarios: 1 });
    await expect(validateFiles(['x.scenario.yaml'], { overlay: ['skills/nope'] }, dir)).rejects.toMatchObject({
      file: '--overlay',
      code: 'CONFIG_NOT_FOUND',
      expected: `skill folder "${join(dir, 'skills', 'nope')}" does not exist; expected a folder that holds SKILL.md`,
    });
  });

  it("takes a SKILL.md below another skill's folder for one of that skill's files, as run delivers it, not a skill of its own", async () => {
    const dir = tempDir({
      'skills/skill-writer/SKILL.md': '---\nname: skill-writer\ndescription: Use to write a skill.\n---\nCopy templates/SKILL.md.\n',
      'skills/skill-writer/templates/SKILL.md': '---\nname: <your-skill>\ndescription: <when>\n---\n',
      'skills/skill-writer/templates/deeper/SKILL.md': 'not even front matter\n',
      'skills/other/SKILL.md': '---\nname: other\ndescription: Another skill.\n---\n',
    });
    const report = await validateFiles(['.'], {}, dir);
    expect(report.problems).toEqual([]);
    expect(report.counts.skill).toBe(2);
    // Walked from inside, the template's folder is the root of the walk: its SKILL.md is the skill asked for.
    const inside = await validateFiles(['skills/skill-writer/templates'], {}, dir);
    expect(inside.problems.map((problem) => `${problem.file.slice(dir.length + 1)} ${problem.path}`)).toEqual(['skills/skill-writer/templates/SKILL.md name']);
  });

  it('validates external agent builds found in a folder', async () => {
    const dir = tempDir({
      'ext.yaml': 'id: ext\nexternal:\n  command: [node, agent.mjs]\n',
      'bad.yaml': 'id: bad\nexternal:\n  command: []\n',
    });
    const report = await validateFiles(['.'], {}, dir);
    expect(report.counts.agent).toBe(1);
    expect(report.problems.map((problem) => problem.message)).toEqual([expect.stringMatching(/bad\.yaml:3:\d+ at external\.command: /)]);
  });

  it('reports every bad agent.mcps entry of a build, each at its path, never quoting a URL password', async () => {
    const dir = tempDir({
      'agent.yaml': [
        'id: bot',
        'agent:',
        '  name: Bot',
        '  mcps:',
        '    - {name: fs, command: [x]}',
        '    - {name: fs, command: [y]}',
        '    - {name: gh, url: "https://ada:pw-hunter22@mcp.test/mcp"}',
        '    - {name: ws, url: "ws://mcp.test/"}',
        '',
      ].join('\n'),
    });
    const report = await validateFiles(['.'], {}, dir);
    expect(report.problems.map((problem) => [problem.path, problem.line])).toEqual([
      ['agent.mcps[1].name', 6],
      ['agent.mcps[2].url', 7],
      ['agent.mcps[3].url', 8],
    ]);
    expect(report.problems[1].message).toContain('send them in "headers" with a secret reference instead');
    expect(report.problems.map((problem) => problem.message).join('\n')).not.toContain('pw-hunter22');
  });

  it('looks for the ./ file a command runs where the run will: relative to the build file', async () => {
    const dir = tempDir({
      'agents/ok.yaml': 'id: ok\nexternal:\n  command: [node, --no-warnings, ./agent.mjs, ./out.json]\n',
      'agents/agent.mjs': '',
      'agents/missing.yaml': 'id: missing\nexternal:\n  command: [node, ./missing.mjs]\n',
      'agents/program.yaml': 'id: program\nexternal:\n  command: [../bin/agent]\n',
      'agents/server.yaml': 'id: server\nexternal:\n  http: {url: "http://127.0.0.1:{port}/", start: {command: [node, ./server.mjs]}}\n',
      'agents/bare.yaml': 'id: bare\nexternal:\n  command: [node, agent-in-workspace.mjs]\n',
      // In the working folder, not beside the build: the run would not find it either.
      'missing.mjs': '',
    });
    const report = await validateFiles(['agents'], {}, dir);
    expect(report.counts.agent).toBe(2);
    const problems = Object.fromEntries(report.problems.map((problem) => [problem.file.replace(`${dir}/`, ''), problem]));
    expect(Object.keys(problems).sort()).toEqual(['agents/missing.yaml', 'agents/program.yaml', 'agents/server.yaml']);
    expect(problems['agents/missing.yaml']).toMatchObject({ line: 3, path: 'external.command[1]' });
    expect(problems['agents/missing.yaml'].message).toContain(
      `"./missing.mjs" does not exist: ./ and ../ paths of a command are relative to the build file's folder, so expected a file at ${join(dir, 'agents', 'missing.mjs')}`,
    );
    expect(problems['agents/program.yaml'].path).toBe('external.command[0]');
    expect(problems['agents/server.yaml'].path).toBe('external.http.start.command[1]');
  });
});

describe("validateFiles' counts: what was checked and valid", () => {
  const BUILD = 'id: bot\nagent:\n  name: Bot\n  tools: [{name: t, returns: 1}]\n';
  const scenario = (name: string, agent = 'bot.yaml') =>
    `name: ${name}\nagent: ${agent}\ninputs: {messages: [{role: user, content: hi}]}\nmodel: {script: [{text: ok}]}\n`;

  it('counts the build a scenario file loaded, once however many files use it and also when named', async () => {
    const dir = tempDir({ 'bot.yaml': BUILD, 'a.scenario.yaml': scenario('a'), 'b.scenario.yaml': scenario('b', './bot.yaml') });
    expect((await validateFiles(['a.scenario.yaml'], {}, dir)).counts).toEqual({ agent: 1, scenario: 1, skill: 0, config: 0 });
    expect((await validateFiles(['.', 'bot.yaml'], {}, dir)).counts).toEqual({ agent: 1, scenario: 2, skill: 0, config: 0 });
  });

  it('counts the build of a scenario file with problems of its own, not a build that does not load', async () => {
    const dir = tempDir({
      'bot.yaml': BUILD,
      'bad.yaml': 'id: bad\nagent:\n  name: Bad\n  tools: [{name: t}]\n',
      'a.scenario.yaml': `${scenario('a')}expect: {checks: [{tool_called: {tool: t, mni: 1}}]}\n`,
      'b.scenario.yaml': scenario('b', 'bad.yaml'),
    });
    const report = await validateFiles(['a.scenario.yaml', 'b.scenario.yaml'], {}, dir);
    expect(report.counts).toEqual({ agent: 1, scenario: 0, skill: 0, config: 0 });
    expect(report.problems.map((problem) => problem.path).sort()).toEqual(['agent.tools[0]', 'expect.checks[0].tool_called.mni']);
  });

  it("counts each skill folder checked and valid once, also one a build's ref, a config's forced or overlay, or a scenario's skills load", async () => {
    const skill = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\nbody\n`;
    const dir = tempDir({
      'shared/by-ref/SKILL.md': skill('by-ref'),
      'shared/forced/SKILL.md': skill('forced'),
      'shared/overlay/SKILL.md': skill('overlay'),
      'shared/scenario/SKILL.md': skill('scenario'),
      'shared/broken/SKILL.md': '---\nname: Broken Name\ndescription: x\n---\n',
      'suite/bot.yaml': 'id: bot\nagent:\n  name: Bot\n  skills: [{ref: ../shared/by-ref}, {ref: ../shared/broken}]\n',
      'suite/ok.yaml': 'id: ok\nagent:\n  name: Ok\n  skills: [{ref: ../shared/by-ref}]\n',
      'suite/a.scenario.yaml': `${scenario('a', 'ok.yaml')}skills: {overlay: [../shared/scenario, ../shared/by-ref]}\n`,
      'suite/agentcheck.config.yaml': 'skills: {forced: [../shared/forced], overlay: [../shared/overlay, ../shared/forced]}\n',
    });
    const report = await validateFiles(['suite'], {}, dir);
    expect(report.problems.map((problem) => `${problem.file.slice(dir.length + 1)} ${problem.path}`)).toEqual(['shared/broken/SKILL.md name']);
    // by-ref, forced, overlay and scenario, each once however often it is named; broken is not valid.
    expect(report.counts).toEqual({ agent: 1, scenario: 1, skill: 4, config: 1 });
    // With --config and no paths, as run --config checks it.
    const suite = await validateFiles([], { config: 'suite/agentcheck.config.yaml' }, dir);
    expect(suite.counts.skill).toBe(4);
    // A build named alone counts the skill its ref loads.
    expect((await validateFiles(['suite/ok.yaml'], {}, dir)).counts).toEqual({ agent: 1, scenario: 0, skill: 1, config: 0 });
  });

  it('counts neither of two suite configs in one folder', async () => {
    const dir = tempDir({
      'bot.yaml': BUILD,
      'a.scenario.yaml': scenario('a'),
      'agentcheck.config.yaml': 'out: r\n',
      'agentcheck.config.json': '{"out": "r"}\n',
    });
    const report = await validateFiles(['.'], {}, dir);
    expect(report.problems.map((problem) => problem.message)).toEqual([expect.stringContaining('is one of 2 suite configs in one folder')]);
    expect(report.counts).toEqual({ agent: 1, scenario: 1, skill: 0, config: 0 });
  });
});
