import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/run-main.js';
import { sharedDir } from '../helpers/shared-fixture.js';
import { tempDir } from '../helpers/temp-dir.js';
import { AGENT_YAML, runCli } from './cli.js';

// What the summary counts is validate's logic: one success (exit 0) and the refusal (exit 2) on the
// built CLI, the other counts through its entry in-process (runMain), which prints the same line.
describe("agentcheck validate's summary counts what was checked and valid", () => {
  // A cache folder of the file's own, not the checkout's: the first process fills it, the later
  // ones start from it (a process compiling the CLI without a cache costs about half again).
  const env = { AGENTCHECK_CACHE_DIR: sharedDir() };

  it('counts a build a scenario file loaded, once however it is reached', async () => {
    const dir = tempDir({
      'bot.yaml': AGENT_YAML,
      'a.scenario.yaml': 'name: a\nagent: bot.yaml\ninputs: {messages: [{role: user, content: x}]}\nmodel: {script: [{text: ok}]}\n',
      'b.scenario.yaml': 'name: b\nagent: ./bot.yaml\ninputs: {messages: [{role: user, content: x}]}\nmodel: {script: [{text: ok}]}\n',
    });
    const scenarios = await runCli(['validate', 'a.scenario.yaml', 'b.scenario.yaml'], dir, env);
    expect(scenarios.exitCode, scenarios.all).toBe(0);
    expect(scenarios.stdout).toBe('agentcheck validate: ok: 1 agent build(s), 2 scenario file(s) with 2 scenario(s), 0 skill(s), 0 config(s)');
    const all = await runMain(['validate', '.', 'bot.yaml'], dir, env);
    expect(all.exitCode, all.all).toBe(0);
    expect(all.stdout).toBe('agentcheck validate: ok: 1 agent build(s), 2 scenario file(s) with 2 scenario(s), 0 skill(s), 0 config(s)');
  });

  it("counts the skills a build's ref and a config's skills load, outside the paths, each folder once", async () => {
    const skill = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\nbody\n`;
    const dir = tempDir({
      'skills/helper/SKILL.md': skill('helper'),
      'skills/style/SKILL.md': skill('style'),
      'suite/bot.yaml': AGENT_YAML.replace('  tools:', '  skills: [{ref: ../skills/helper}]\n  tools:'),
      'suite/a.scenario.yaml': 'name: a\nagent: bot.yaml\ninputs: {messages: [{role: user, content: x}]}\nmodel: {script: [{text: ok}]}\n',
      'suite/agentcheck.config.yaml': 'skills: {overlay: [../skills/style, ../skills/helper]}\n',
    });
    const result = await runMain(['validate', 'suite'], dir, env);
    expect(result.stdout, result.all).toBe('agentcheck validate: ok: 1 agent build(s), 1 scenario file(s) with 1 scenario(s), 2 skill(s), 1 config(s)');
  });

  it('counts neither of two suite configs in one folder, which run refuses', async () => {
    const dir = tempDir({
      'bot.yaml': AGENT_YAML,
      'a.scenario.yaml': 'name: a\nagent: bot.yaml\ninputs: {messages: [{role: user, content: x}]}\nmodel: {script: [{text: ok}]}\n',
      'agentcheck.config.yaml': 'out: reports\n',
      'agentcheck.config.json': '{"out": "reports"}\n',
    });
    const result = await runCli(['validate', '.'], dir, env);
    expect(result.exitCode, result.all).toBe(2);
    expect(result.all).toContain('is one of 2 suite configs in one folder');
    expect(result.all).toContain('1 problem(s) in 1 file(s); valid: 1 agent build(s), 1 scenario file(s) with 1 scenario(s), 0 skill(s), 0 config(s)');
  });
});
