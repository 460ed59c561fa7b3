import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/runner/report/report.js';
import { tempDir } from '../helpers/temp-dir.js';
import { ROOT, runCli } from './cli.js';

const EXAMPLE = join(ROOT, 'scenarios', 'external', 'anthropic-fetch');

describe('scenarios/external (external agents through the model bridge)', () => {
  it('runs the plain-fetch Anthropic agent offline; no secret reaches the report or the spans', async () => {
    const out = tempDir();
    const secrets = { OPENAI_API_KEY: 'sk-harness-openai-secret-1', ANTHROPIC_API_KEY: 'sk-ant-harness-secret-2' };
    const result = await runCli(['run', 'scenarios/external/anthropic-fetch', '--reporter', 'json', '--out', out], ROOT, secrets);
    expect(result.exitCode, result.all).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
    expect(report.scenarios.map((row) => row.status).sort()).toEqual(['pass', 'pass']);
    const refund = report.scenarios.find((row) => row.name.includes('refund request'));
    expect(refund?.test_run?.resolved).toMatchObject({ external: { kind: 'command', command: ['node', './agent.mjs'] } });
    const written = readFileSync(join(out, 'report.json'), 'utf8') + readFileSync(join(out, 'spans.jsonl'), 'utf8');
    for (const value of [...Object.values(secrets), 'agentcheck-model-bridge']) expect(written).not.toContain(value);
  });

  it('checks scenario tool names against the tools the external build declares', async () => {
    const dir = tempDir();
    const file = join(dir, 'typo.scenario.yaml');
    writeFileSync(
      file,
      `name: typo
agent: ${join(EXAMPLE, 'agent.yaml')}
inputs: {messages: [{role: user, content: hi}]}
model: {script: [{text: ok}]}
expect: {checks: [{tool_not_called: {tool: refund_ordr}}]}
`,
    );
    const result = await runCli(['validate', file]);
    expect(result.exitCode).toBe(2);
    expect(result.all).toContain('names no tool of the agent: "refund_ordr"');
    expect(result.all).toContain('did you mean "refund_order"');
  });
});
