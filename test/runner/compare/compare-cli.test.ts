import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGENT_YAML, passingScenario, runCli } from '../../e2e/cli.js';
import { tempDir } from '../../helpers/temp-dir.js';

describe('agentcheck compare: trajectory changes (built CLI)', () => {
  it('lists tool calls added, removed and reordered in text and --json', async () => {
    const dir = tempDir({ 'agent.yaml': AGENT_YAML, 'a.scenario.yaml': passingScenario('a'), 'b.scenario.yaml': passingScenario('b') });
    expect((await runCli(['run', '.', '--out', 'base', '--reporter', 'json'], dir)).exitCode).toBe(0);
    // b calls lookup twice now; still passes, so only its trajectory changed.
    writeFileSync(
      join(dir, 'b.scenario.yaml'),
      passingScenario('b').replace('    - tool_calls: [{name: finish', '    - tool_calls: [{name: lookup, args: {id: "2"}}]\n    - tool_calls: [{name: finish'),
    );
    expect((await runCli(['run', '.', '--out', 'head', '--reporter', 'json'], dir)).exitCode).toBe(0);

    const text = await runCli(['compare', 'base/report.json', 'head/report.json'], dir);
    expect(text.exitCode, text.all).toBe(0);
    expect(text.stdout).toContain('trajectory changes (1):\n  b.scenario.yaml#b [base]: +lookup x1\n');
    expect(text.stdout).toContain('0 regressed, 0 improved, 0 appeared, 0 vanished, 2 unchanged');

    const json = JSON.parse((await runCli(['compare', 'base/report.json', 'head/report.json', '--json'], dir)).stdout);
    expect(json.trajectory).toEqual([
      {
        key: 'b.scenario.yaml#b [base]',
        id: 'b.scenario.yaml#b',
        variant: 'base',
        added: [{ tool: 'lookup', count: 1 }],
        removed: [],
        reordered: false,
        base_order: ['lookup', 'finish'],
        head_order: ['lookup', 'finish'],
      },
    ]);
  });
});
