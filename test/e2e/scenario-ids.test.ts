import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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
      const result = await runCli(['run', ...args, '--reporter', 'json', '--out', out], dir);
      expect(result.exitCode, result.all).toBe(0);
      expect(ids(dir, out), out).toEqual(['scenarios/one.scenario.yaml#one']);
    }
    // Without a config, the folder given is the root, as before.
    const bare = tempDir({ 'scenarios/agent.yaml': AGENT_YAML, 'scenarios/one.scenario.yaml': passingScenario('one') });
    expect((await runCli(['run', 'scenarios', '--reporter', 'json', '--out', 'o'], bare)).exitCode).toBe(0);
    expect(ids(bare, 'o')).toEqual(['one.scenario.yaml#one']);
    // A path outside the config's folder keeps the paths' own root.
    const elsewhere = tempDir({ 'agent.yaml': AGENT_YAML, 'two.scenario.yaml': passingScenario('two') });
    const outside = await runCli(['run', elsewhere, '--reporter', 'json', '--out', 'e'], dir);
    expect(outside.exitCode, outside.all).toBe(0);
    expect(ids(dir, 'e')).toEqual(['two.scenario.yaml#two']);
  });
});
