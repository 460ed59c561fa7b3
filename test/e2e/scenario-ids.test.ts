import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMainFull } from '../helpers/run-main-full.js';
import { tempDir } from '../helpers/temp-dir.js';
import { AGENT_YAML, passingScenario, runCli } from './cli.js';

function ids(dir: string, out: string): string[] {
  const report = JSON.parse(readFileSync(join(dir, out, 'report.json'), 'utf8')) as { scenarios: Array<{ id: string }> };
  return report.scenarios.map((row) => row.id);
}

describe('scenario ids with a suite config', () => {
  it('are relative to the config folder whether or not paths are given, so cassettes and compare line up', async () => {
    const dir = tempDir({
      'agentcheck.config.yaml': 'scenarios: [scenarios]\n',
      'scenarios/agent.yaml': AGENT_YAML,
      'scenarios/one.scenario.yaml': passingScenario('one'),
    });
    for (const [out, args] of [
      ['a', []],
      ['b', ['scenarios']],
      ['c', ['--config', 'agentcheck.config.yaml', 'scenarios']],
      ['d', ['scenarios/one.scenario.yaml']],
    ] as const) {
      // The first on the built CLI; the other ways of naming the suite through the CLI's entry
      // in-process (runMainFull): ids are the loader's logic, not the process's.
      const run = out === 'a' ? runCli : runMainFull;
      const result = await run(['run', ...args, '--reporter', 'json', '--out', out], dir);
      expect(result.exitCode, result.all).toBe(0);
      expect(ids(dir, out), out).toEqual(['scenarios/one.scenario.yaml#one']);
    }
    // Without a config, the folder given is the root, as before.
    const bare = tempDir({ 'scenarios/agent.yaml': AGENT_YAML, 'scenarios/one.scenario.yaml': passingScenario('one') });
    expect((await runMainFull(['run', 'scenarios', '--reporter', 'json', '--out', 'o'], bare)).exitCode).toBe(0);
    expect(ids(bare, 'o')).toEqual(['one.scenario.yaml#one']);
    // A path outside the config's folder keeps the paths' own root.
    const elsewhere = tempDir({ 'agent.yaml': AGENT_YAML, 'two.scenario.yaml': passingScenario('two') });
    const outside = await runMainFull(['run', elsewhere, '--reporter', 'json', '--out', 'e'], dir);
    expect(outside.exitCode, outside.all).toBe(0);
    expect(ids(dir, 'e')).toEqual(['two.scenario.yaml#two']);
  });

  it('with --config in a sub folder and a path around it, are relative to the path given, whichever folders hold the scenario files', async () => {
    const dir = tempDir({
      'sub/agentcheck.config.yaml': 'repeat: 1\n',
      'sub/agent.yaml': AGENT_YAML,
      'sub/one.scenario.yaml': passingScenario('one'),
    });
    // In-process (runMainFull), as the other ways above: the built CLI runs the first of them.
    const run = (out: string, args: string[]) =>
      runMainFull(['run', ...args, '--config', 'sub/agentcheck.config.yaml', '--reporter', 'json', '--out', out], dir);
    // `.` is not inside sub: the folder given is the root, though every file found is in sub.
    const around = await run('a', ['.']);
    expect(around.exitCode, around.all).toBe(0);
    expect(ids(dir, 'a')).toEqual(['sub/one.scenario.yaml#one']);
    // A file found outside sub does not change the id of one found inside it.
    writeFileSync(join(dir, 'two.scenario.yaml'), passingScenario('two').replace('agent: agent.yaml', 'agent: sub/agent.yaml'));
    expect((await run('b', ['.'])).exitCode).toBe(0);
    expect(ids(dir, 'b')).toEqual(['sub/one.scenario.yaml#one', 'two.scenario.yaml#two']);
    // A path inside the config's folder: its folder is the root, as without paths.
    expect((await run('c', ['sub'])).exitCode).toBe(0);
    expect(ids(dir, 'c')).toEqual(['one.scenario.yaml#one']);
  });
});
