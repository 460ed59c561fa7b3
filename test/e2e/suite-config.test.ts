import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';
import { runMain } from '../helpers/run-main.js';
import { runMainFull } from '../helpers/run-main-full.js';
import { AGENT_YAML, passingScenario, ROOT, runCli } from './cli.js';

// Refusals at load (exit 2, nothing run or written) and runs that pass run the CLI's entry in-process
// (runMain, runMainFull), beside a built-CLI case of each kind: validate's configs; run's first run
// and its refusal of bad --overlay folders (a named pipe among them: a read of it that blocks would
// hang a test process, where it only stalls a child). What a config selects or refuses is the
// loader's logic: the config's bad skill folders run in-process too.
describe('agentcheck.config.yaml', () => {
  it('delivers overlay skills to every scenario and runs variants with repeats', async () => {
    const dir = tempDir({
      'agent.yaml': AGENT_YAML,
      'suite/a.scenario.yaml': passingScenario('a', '    - resolved: {path: skills, contains: build-an-agent}\n').replace(
        'agent: agent.yaml',
        'agent: ../agent.yaml',
      ),
      'agentcheck.config.yaml': `scenarios: ["suite/**/*.scenario.yaml"]
variants:
  slim: {set: {agent: {max_turns: 3}}}
  wide: {set: {agent: {max_turns: 9}}}
repeat: 2
skills:
  overlay: [${join(ROOT, 'fixtures/skills/build-an-agent')}]
reporters: [json]
out: out
`,
    });
    const result = await runCli(['run'], dir);
    expect(result.exitCode, result.all).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, 'out/report.json'), 'utf8'));
    expect(report.suite.variants).toEqual(['base', 'slim', 'wide']);
    expect(report.scenarios.map((r: { variant: string; repeat: number }) => `${r.variant}#${r.repeat}`)).toEqual([
      'base#0',
      'base#1',
      'slim#0',
      'slim#1',
      'wide#0',
      'wide#1',
    ]);
    const slim = report.scenarios.find((r: { variant: string }) => r.variant === 'slim');
    expect(slim.test_run.resolved.max_turns).toBe(3);
    expect(slim.test_run.resolved.delta_hash).toMatch(/^[0-9a-f]{16}$/);
    expect(slim.test_run.resolved.skills).toEqual(['build-an-agent']);

    const only = await runMainFull(['run', '--variant', 'slim', '--repeat', '1', '--out', 'only', '--reporter', 'json'], dir);
    expect(only.exitCode).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'only/report.json'), 'utf8')).scenarios).toHaveLength(1);
    // The flag is repeatable and takes comma lists; a path after it stays a path.
    const both = await runMainFull(
      ['run', '--variant', 'base', '--variant', 'slim,wide', 'suite', '--repeat', '1', '--out', 'both', '--reporter', 'json'],
      dir,
    );
    expect(both.exitCode, both.all).toBe(0);
    const bothReport = JSON.parse(readFileSync(join(dir, 'both/report.json'), 'utf8'));
    expect(bothReport.suite.variants).toEqual(['base', 'slim', 'wide']);
    expect(bothReport.scenarios).toHaveLength(3);
  });

  it("runs a folder with its own agentcheck.config.yaml as that config says, noting the current folder's passed over, also with --quiet", async () => {
    const dir = tempDir({
      'agentcheck.config.yaml': 'variants: {outer: {set: {agent: {max_turns: 4}}}}\n',
      'suite/agent.yaml': AGENT_YAML,
      'suite/s.scenario.yaml': passingScenario('s'),
      'suite/cases/only.yaml': passingScenario('picked by the config glob').replace('agent: agent.yaml', 'agent: ../agent.yaml'),
      'suite/agentcheck.config.yaml': 'scenarios: ["cases/*.yaml"]\nvariants: {inner: {set: {agent: {max_turns: 3}}}}\nreporters: [json]\nout: out\n',
    });
    const result = await runMainFull(['run', 'suite', '--quiet'], dir);
    expect(result.exitCode, result.all).toBe(0);
    expect(result.stderr).toContain(
      'agentcheck: using suite/agentcheck.config.yaml (the config of the folder given); agentcheck.config.yaml of the current folder is passed over (give --config to choose)',
    );
    const report = JSON.parse(readFileSync(join(dir, 'suite/out/report.json'), 'utf8'));
    expect(report.suite.config).toBe(join(dir, 'suite/agentcheck.config.yaml'));
    expect(report.suite.variants).toEqual(['base', 'inner']);
    // Only what the config's glob picks: not suite/s.scenario.yaml.
    expect(report.scenarios.map((r: { id: string; variant: string }) => `${r.id} ${r.variant}`)).toEqual([
      'cases/only.yaml#picked by the config glob base',
      'cases/only.yaml#picked by the config glob inner',
    ]);
    // Nothing is passed over when --config chooses (the current folder's config under its other names: below).
    const chosen = await runMainFull(['run', 'suite', '--config', 'agentcheck.config.yaml', '--out', 'o2', '--reporter', 'json', '--quiet'], dir);
    expect(chosen.exitCode, chosen.all).toBe(0);
    expect(chosen.stderr).not.toContain('passed over');
  });

  it('a judge check without a grader names the config in a folder below that run DIR does not read, and runs with it', async () => {
    const grader = `{provider: scripted, model: grader, script: [{text: '{"score": 1, "passed": true, "reason": "ok"}'}]}`;
    const dir = tempDir({
      'top/agent.yaml': AGENT_YAML,
      'top/sub/judged.scenario.yaml': passingScenario('judged', '    - judge: {rubric: "finishes"}\n').replace('agent: agent.yaml', 'agent: ../agent.yaml'),
      'top/sub/agentcheck.config.yaml': `judge: {model: ${grader}}\n`,
    });
    const missing =
      'a judge check needs a grader model: give it `model: {provider, model}` (or a `script`), or set a default `judge: {model: ...}` in agentcheck.config.yaml';
    const passedOver = `; top/sub/agentcheck.config.yaml may set judge.model, but it is not the suite config of this run`;
    const below = await runMain(['run', 'top', '--out', 'o', '--quiet'], dir);
    expect(below.exitCode, below.all).toBe(2);
    expect(below.stderr).toContain(`${missing}${passedOver} (a run reads the config of the current folder, or of the one folder it is given`);
    // The folder of the config, or the config named, grades with it.
    expect((await runMainFull(['run', 'top/sub', '--out', 'o', '--quiet'], dir)).exitCode).toBe(0);
    expect((await runMainFull(['run', 'top', '--config', 'top/sub/agentcheck.config.yaml', '--out', 'o', '--quiet'], dir)).exitCode).toBe(0);
    // With no config anywhere near, the message is the plain one.
    const none = tempDir({ 'agent.yaml': AGENT_YAML, 'judged.scenario.yaml': passingScenario('judged', '    - judge: {rubric: "finishes"}\n') });
    const plain = await runMain(['run', '.', '--out', 'o', '--quiet'], none);
    expect(plain.exitCode, plain.all).toBe(2);
    expect(plain.stderr).toContain(missing);
    expect(plain.stderr).not.toContain('may set judge.model');
  });

  it('reads agentcheck.config.yml and .json where validate checks them as the suite config, and refuses two in one folder', async () => {
    const config = 'scenarios: ["suite"]\nvariants: {slim: {set: {agent: {max_turns: 3}}}}\nreporters: [json]\nout: out\n';
    const files = { 'agent.yaml': AGENT_YAML, 'suite/a.scenario.yaml': passingScenario('a').replace('agent: agent.yaml', 'agent: ../agent.yaml') };
    const yml = tempDir({
      ...files,
      'agentcheck.config.yml': config,
      'suite/agentcheck.config.json': '{"variants": {"wide": {"set": {"agent": {"max_turns": 9}}}}, "reporters": ["json"], "out": "out"}',
    });
    const validate = await runCli(['validate'], yml);
    expect(validate.exitCode, validate.all).toBe(0);
    expect(validate.stdout).toContain('2 config(s)');
    const run = await runMainFull(['run'], yml);
    expect(run.exitCode, run.all).toBe(0);
    const report = JSON.parse(readFileSync(join(yml, 'out/report.json'), 'utf8'));
    expect([report.suite.config, report.suite.variants]).toEqual([join(yml, 'agentcheck.config.yml'), ['base', 'slim']]);
    // `run DIR` reads DIR's own agentcheck.config.json; the current folder's config under its other name is passed over alike.
    const own = await runMainFull(['run', 'suite', '--quiet'], yml);
    expect(own.exitCode, own.all).toBe(0);
    expect(own.stderr).toContain('agentcheck.config.yml of the current folder is passed over');
    expect(JSON.parse(readFileSync(join(yml, 'suite/out/report.json'), 'utf8')).suite.variants).toEqual(['base', 'wide']);
    // A bad value is found by both, never skipped by run; validate says it beside two suite configs in
    // one folder (which one applies is not guessed), run refuses the two before reading either.
    const bad = `${config}repeat: 0\n`;
    const two = tempDir({ ...files, 'agentcheck.config.yaml': config, 'agentcheck.config.yml': bad });
    const twoConfigs = `${join(two, 'agentcheck.config.yaml')}: is one of 2 suite configs in one folder (also ${join(two, 'agentcheck.config.yml')}); keep one`;
    const checked = await runCli(['validate'], two);
    expect(checked.exitCode, checked.all).toBe(2);
    expect(checked.stderr).toContain('agentcheck.config.yml:5:9 at repeat:');
    expect(checked.stderr).toContain(twoConfigs);
    const refused = await runMain(['run'], two);
    expect(refused.exitCode, refused.all).toBe(2);
    expect(refused.stderr).toContain(twoConfigs);
    const alone = await runMain(['run'], tempDir({ ...files, 'agentcheck.config.yml': bad }));
    expect(alone.exitCode, alone.all).toBe(2);
    expect(alone.stderr).toContain('agentcheck.config.yml:5:9 at repeat:');
  });

  it('rejects a config with a bad skill folder or a SKILL.md too large (both in one pass), or an unknown variant, exit 2', async () => {
    const dir = tempDir({
      'agent.yaml': AGENT_YAML,
      'a.scenario.yaml': passingScenario('a'),
      'big/SKILL.md': `---\nname: big\ndescription: B.\n---\n${'x'.repeat(5 * 1024 * 1024)}`,
      'agentcheck.config.yaml': 'skills:\n  overlay: [./no-such-skill]\n  forced: [big]\n',
    });
    // In-process (runMain): the built CLI refuses the --overlay folders below, the same check of a skill folder.
    const bad = await runMain(['run', '.'], dir);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/agentcheck\.config\.yaml:2:13 at skills\.overlay\[0\]/);
    // The SKILL.md too large is named itself, not the config entry that led to it.
    expect(bad.stderr).toContain(`${join(dir, 'big', 'SKILL.md')}: is `);
    expect(bad.stderr).not.toContain('at skills.forced[0]: is ');
    const variant = await runMain(['run', '.', '--config', join(ROOT, 'package.json')], dir);
    expect(variant.exitCode).toBe(2);
    const unknown = await runMain(['run', '.', '--variant', 'nope', '--config', '/dev/null'], dir);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('unknown variant "nope"; expected one of: base');
  });

  it('unknown --variant names are said all at once, at the flag, the config named as where variants are defined', async () => {
    const dir = tempDir({
      'agent.yaml': AGENT_YAML,
      'a.scenario.yaml': passingScenario('a'),
      'agentcheck.config.yaml': 'variants:\n  lean: {set: {agent: {max_turns: 3}}}\n  wide: {set: {agent: {max_turns: 9}}}\n',
    });
    const unknown = await runMain(['run', '.', '--variant', 'lean', 'fast', 'slow'], dir);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toBe(
      'agentcheck: invalid input: --variant: unknown variants "fast", "slow"; expected one of: base, lean, wide (agentcheck.config.yaml defines lean, wide)',
    );
  });

  it('selecting a variant the config left out for its own problem says only that problem, never "unknown variant"', async () => {
    const dir = tempDir({
      'agent.yaml': AGENT_YAML,
      'a.scenario.yaml': passingScenario('a'),
      'list.yaml': 'variants: [lean]\n',
      'own.yaml': 'variants:\n  lean: {sett: {}}\n',
    });
    const list = await runMain(['run', '.', '--config', 'list.yaml', '--variant', 'lean', '--out', 'out'], dir);
    expect(list.exitCode, list.all).toBe(2);
    expect(list.stderr).toMatch(/list\.yaml:1:\d+ at variants: expected object, got an array/);
    expect(list.stderr).not.toContain('unknown variant');
    // Beside it, a name the config never gave is still unknown, the left-out names listed as such: the
    // two lines are all that is said (lean is never called unknown).
    const own = await runMain(['run', '.', '--config', 'own.yaml', '--variant', 'lean,nope', '--out', 'out'], dir);
    expect(own.exitCode, own.all).toBe(2);
    const [problem, nope, ...rest] = own.stderr.trimEnd().split('\n');
    expect(problem).toMatch(/own\.yaml:2:\d+ at variants\.lean(\.sett)?: /);
    expect(problem).not.toContain('unknown variant');
    expect(nope).toBe('--variant: unknown variant "nope"; expected one of: base (lean left out for the problems said at the config)');
    expect(rest).toEqual([]);
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });

  it("names a variant's problem at its path in the config, also under a path key of set (not the build's path)", async () => {
    const dir = tempDir({
      'agent.yaml': AGENT_YAML,
      'a.scenario.yaml': passingScenario('a'),
      'c.yaml': 'variants:\n  x: {set: {"agent.tools[name=lookup]": {permision: ask}}}\n  y: {set: {agent: {max_turns: "5"}}}\n',
    });
    const result = await runMain(['run', '--config', 'c.yaml', '--out', 'out'], dir);
    expect(result.exitCode, result.all).toBe(2);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(2);
    // Both at the value the variant wrote (line 2 column 53 is `ask`), by their path in c.yaml.
    expect(lines[0]).toContain(
      `${join(dir, 'c.yaml')}:2:53 at variants.x.set.agent.tools[name=lookup].permision: variant "x" does not apply to the build agent.yaml of scenario "a.scenario.yaml#a": after applying the delta: unknown key "permision" (did you mean "permission"?)`,
    );
    expect(lines[1]).toContain(`${join(dir, 'c.yaml')}:3:32 at variants.y.set.agent.max_turns: variant "y" does not apply`);
    expect(existsSync(join(dir, 'out', 'report.json'))).toBe(false);
  });

  it('checks each --overlay folder on its own before anything runs: one run names a missing folder, a SKILL.md too large, a folder or a link to nothing, and a named pipe', async () => {
    const dir = tempDir({
      'agent.yaml': AGENT_YAML,
      'a.scenario.yaml': passingScenario('a'),
      'big/SKILL.md': `---\nname: big\ndescription: B.\n---\n${'x'.repeat(5 * 1024 * 1024)}`,
      'odd/notes.md': 'x',
    });
    mkdirSync(join(dir, 'odd', 'SKILL.md'));
    mkdirSync(join(dir, 'dl'));
    symlinkSync('../shared/SKILL.md', join(dir, 'dl', 'SKILL.md'));
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    const overlays = ['no-such-skill', 'big', 'odd', 'dl', 'fifo'].flatMap((folder) => ['--overlay', folder]);
    const flag = await runCli(['run', 'a.scenario.yaml', '--config', '/dev/null', ...overlays, '--out', 'out'], dir);
    expect(flag.exitCode).toBe(2);
    // One refusal, each folder's problem on its own line.
    expect(flag.stderr).toMatch(/^agentcheck: invalid input: /);
    const said = flag.stderr
      .replace(/^agentcheck: invalid input: /, '')
      .trimEnd()
      .split('\n');
    expect(said).toContain(`--overlay: skill folder "${join(dir, 'no-such-skill')}" does not exist; expected a folder that holds SKILL.md`);
    // A flag's folder is relative to the current folder: no hint about refs in files.
    expect(flag.stderr).not.toContain('a ref is relative');
    expect(said.find((line) => line.startsWith(`${join(dir, 'big', 'SKILL.md')}: is `))).toMatch(/ bytes; SKILL\.md is limited to 5242880 bytes$/);
    expect(flag.stderr).toContain(`--overlay: "${join(dir, 'odd', 'SKILL.md')}" is a folder, not a regular file; expected SKILL.md to be a file`);
    expect(flag.stderr).toContain(
      `--overlay: "${join(dir, 'dl', 'SKILL.md')}" is a symbolic link to nothing: its target "../shared/SKILL.md" ("${join(dir, 'shared', 'SKILL.md')}") does not exist; expected SKILL.md`,
    );
    expect(flag.stderr).not.toContain('has no SKILL.md');
    expect(flag.stderr).toContain(`--overlay: "${join(dir, 'fifo')}" is a named pipe (FIFO), not a folder; expected a skill folder that holds SKILL.md`);
    // No error rows, no report.
    expect(existsSync(join(dir, 'out', 'report.json'))).toBe(false);
  });

  it('blames a problem of its model once, at its own line, in validate and run alike', async () => {
    const openai = AGENT_YAML.replace('{provider: scripted, model: e2e}', '{provider: openai, model: gpt-4.1-mini}');
    const dir = tempDir({
      'agent.yaml': openai,
      'sc/a.scenario.yaml': passingScenario('a').replace('agent: agent.yaml', 'agent: ../agent.yaml'),
      'sc/b.scenario.yaml': passingScenario('b').replace('agent: agent.yaml', 'agent: ../agent.yaml'),
      'c2.yaml': 'scenarios: ["sc/*.scenario.yaml"]\nmodel: {provider: anthropic}\n',
    });
    const expected = /^\S*c2\.yaml:2:19 at model\.provider: model\.provider changes the provider to "anthropic": name its model too \(model\.model\)$/m;
    const validate = await runMain(['validate', '--config', 'c2.yaml'], dir);
    expect(validate.exitCode, validate.all).toBe(2);
    expect(validate.all).toMatch(expected);
    expect(validate.all).not.toContain('.scenario.yaml:');
    // The scenario files are checked without the config's model and counted, as beside a variant that does
    // not apply; so is the build they load.
    expect(validate.all).toContain('1 problem(s) in 1 file(s); valid: 1 agent build(s), 2 scenario file(s) with 2 scenario(s), 0 skill(s), 0 config(s)');
    const run = await runMain(['run', '--config', 'c2.yaml'], dir);
    expect(run.exitCode, run.all).toBe(2);
    expect(run.stderr.replace('agentcheck: invalid input: ', '')).toMatch(expected);
    expect(run.stderr).not.toContain('.scenario.yaml:');
  });
  it("validate DIR and run DIR read DIR's config, whose scenarios name no file: its problems only, the current folder's passed over", async () => {
    const dir = tempDir({
      'agentcheck.config.yaml': 'model: {provider: scripted, model: x, parameters: {temprature: 1}}\n',
      'sub/agent.yaml': AGENT_YAML,
      'sub/sc/a.scenario.yaml': passingScenario('a').replace('agent: agent.yaml', 'agent: ../agent.yaml'),
      'sub/agentcheck.config.yaml': 'scenarios: [nomatch]\n',
    });
    // The entry as written, from the config's folder (not sub/nomatch).
    const expected = /^\S*sub\/agentcheck\.config\.yaml:1:\d+ at scenarios\[0\]: path not found: nomatch; expected .*relative to the config's folder$/m;
    const validate = await runMain(['validate', 'sub'], dir);
    expect(validate.exitCode, validate.all).toBe(2);
    expect(validate.stderr).toMatch(expected);
    expect(validate.all).not.toContain('temprature');
    expect(validate.all).toContain('1 problem(s) in 1 file(s); valid: 1 agent build(s), 1 scenario file(s) with 1 scenario(s), 0 skill(s), 0 config(s)');
    const run = await runMain(['run', 'sub'], dir);
    expect(run.exitCode, run.all).toBe(2);
    expect(run.stderr.replace('agentcheck: invalid input: ', '')).toMatch(expected);
    expect(run.all).not.toContain('temprature');
    // Globs naming no file at all are said beside the config's other problems, by run as by validate.
    writeFileSync(join(dir, 'sub/agentcheck.config.yaml'), 'scenarios: ["x/*.yaml"]\nout: 7\n');
    for (const command of ['validate', 'run']) {
      const result = await runMain([command, 'sub'], dir);
      expect(result.exitCode, result.all).toBe(2);
      expect(result.stderr, command).toMatch(/at scenarios: matches no scenario file .*; check the globs$/m);
      expect(result.stderr, command).toMatch(/at out: expected string, got number 7$/m);
    }
  });
});
