import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../../src/runner/report/report.js';
import { runMain } from '../../helpers/run-main.js';
import { tempDir } from '../../helpers/temp-dir.js';

const AGENT = 'id: bot\nagent:\n  name: Bot\n';
const SUITE = `name: "t {{ vars.val }}"
agent: agent.yaml
inputs: {messages: [{role: user, content: hi}]}
model: {script: [{text: done}]}
dataset: [{val: ghp_SECRETTOKENVALUE0001}, {val: ghp_OTHERSECRETVALUE0002}]
`;

describe('scenario ids that only a secret tells apart', () => {
  it('are refused before anything runs or is written (exit 2), in words without the secrets', async () => {
    const dir = tempDir({ 'agent.yaml': AGENT, 'dupid.scenario.yaml': SUITE });
    const env = { GH_TOKEN: 'ghp_SECRETTOKENVALUE0001', GH2_TOKEN: 'ghp_OTHERSECRETVALUE0002' };
    const result = await runMain(['run', 'dupid.scenario.yaml', '--out', 'o'], dir, env);
    expect(result.exitCode, result.all).toBe(2);
    expect(result.stderr).toContain('dupid.scenario.yaml');
    expect(result.stderr).toContain(
      'two scenarios have ids that differ only in the value of a secret (an environment variable with a secret\'s name, or a key of an agent build), which reports show as [redacted]: both would be "dupid.scenario.yaml#t [redacted]"',
    );
    expect(result.all).not.toMatch(/SECRETTOKEN|OTHERSECRET/);
    expect(existsSync(join(dir, 'o'))).toBe(false);
  });

  it('run when the ids stay apart, each row under its scrubbed id in every report (a streamed json report included)', async () => {
    const dir = tempDir({ 'agent.yaml': AGENT, 'dupid.scenario.yaml': SUITE });
    const result = await runMain(['run', 'dupid.scenario.yaml', '--out', 'o', '--reporter', 'table,json,md,junit'], dir, {
      GH_TOKEN: 'ghp_SECRETTOKENVALUE0001',
    });
    expect(result.exitCode, result.all).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, 'o/report.json'), 'utf8')) as Report;
    expect(report.scenarios.map((row) => [row.id, row.status])).toEqual([
      ['dupid.scenario.yaml#t [redacted]', 'pass'],
      ['dupid.scenario.yaml#t ghp_OTHERSECRETVALUE0002', 'pass'],
    ]);
    for (const file of ['report.json', 'report.md', 'junit.xml', 'spans.jsonl'])
      expect(readFileSync(join(dir, 'o', file), 'utf8')).not.toContain('SECRETTOKEN');
    expect(result.all).not.toContain('SECRETTOKEN');
    expect(readFileSync(join(dir, 'o/junit.xml'), 'utf8')).toContain('name="t [redacted] [base]"');
  });

  it('--only-failed reruns a failed scenario found under its scrubbed id, and only it', async () => {
    const suite = SUITE.replace(
      'dataset: [{val: ghp_SECRETTOKENVALUE0001}, {val: ghp_OTHERSECRETVALUE0002}]',
      'dataset: [{val: ghp_SECRETTOKENVALUE0001, want: nope}, {val: plain, want: done}]',
    ).concat('expect: {checks: [{output: {contains: "{{ vars.want }}"}}]}\n');
    const dir = tempDir({ 'agent.yaml': AGENT, 's.scenario.yaml': suite });
    const env = { GH_TOKEN: 'ghp_SECRETTOKENVALUE0001' };
    const first = await runMain(['run', 's.scenario.yaml', '--out', 'r', '--reporter', 'json'], dir, env);
    expect(first.exitCode, first.all).toBe(1);
    const again = await runMain(['run', 's.scenario.yaml', '--out', 'r2', '--reporter', 'json', '--only-failed', 'r/report.json'], dir, env);
    expect(again.exitCode, again.all).toBe(1);
    expect(again.stderr).not.toContain('not in this suite');
    const report = JSON.parse(readFileSync(join(dir, 'r2/report.json'), 'utf8')) as Report;
    expect(report.scenarios.map((row) => [row.id, row.status])).toEqual([['s.scenario.yaml#t [redacted]', 'fail']]);
  });
});
