import { describe, expect, it } from 'vitest';
import { AGENT_YAML, passingScenario, runCli } from '../e2e/cli.js';
import { runMain } from '../helpers/run-main.js';
import { tempDir } from '../helpers/temp-dir.js';

// A plan too large to hold is refused before anything is allocated, with a flag to raise the cap.
// The built CLI refuses the suite config's repeat and runs the raised cap; the other refusals (exit
// 2 before anything runs) go through the CLI's entry in-process (runMain).

describe('the planned run count is capped', () => {
  it('refuses repeat: 100000000 in the suite config with a clear error, exit 2', async () => {
    const dir = tempDir({ 'agent.yaml': AGENT_YAML, 'a.scenario.yaml': passingScenario('one'), 'agentcheck.config.yaml': 'repeat: 100000000\n' });
    const result = await runCli(['run', '.', '--out', `${dir}/out`, '--reporter', 'json'], dir);
    expect(result.exitCode, result.all).toBe(2);
    expect(result.stderr).toMatch(/agentcheck\.config\.yaml:1:\d+ at repeat: the suite plans/);
    expect(result.stderr).toContain('the suite plans 100,000,000 runs (1 scenario x 1 variant x 100,000,000 repeats), more than the limit of 1,000,000');
    expect(result.stderr).toContain('--max-runs');
  });

  it('--max-runs lowers or raises the cap', async () => {
    const dir = tempDir({ 'agent.yaml': AGENT_YAML, 'a.scenario.yaml': passingScenario('one') });
    const refused = await runMain(['run', '.', '--repeat', '3', '--max-runs', '2', '--out', `${dir}/out`, '--reporter', 'json'], dir);
    expect(refused.exitCode, refused.all).toBe(2);
    expect(refused.stderr).toMatch(/--repeat.*plans 3 runs/);
    const allowed = await runCli(['run', '.', '--repeat', '3', '--max-runs', '3', '--out', `${dir}/out`, '--reporter', 'json'], dir);
    expect(allowed.exitCode, allowed.all).toBe(0);
  });

  it('blames the limit, not a repeat nobody set, and advises lowering only what is above 1', async () => {
    const dir = tempDir({
      'agent.yaml': AGENT_YAML,
      'a.scenario.yaml': passingScenario('one'),
      'b.scenario.yaml': passingScenario('two'),
      'c.yaml': 'concurrency: 2\n',
    });
    for (const config of [[], ['--config', 'c.yaml']]) {
      const refused = await runMain(['run', '.', ...config, '--max-runs', '1', '--out', `${dir}/out`, '--reporter', 'json'], dir);
      expect(refused.exitCode, refused.all).toBe(2);
      expect(refused.stderr).toContain(
        'agentcheck: invalid input: --max-runs: the suite plans 2 runs (2 scenarios x 1 variant x 1 repeat), more than the limit of 1; select fewer scenarios, or raise the limit with --max-runs',
      );
    }
  });
});
