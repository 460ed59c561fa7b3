import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../e2e/cli.js';
import { runMain } from '../helpers/run-main.js';
import { tempDir } from '../helpers/temp-dir.js';

// A paused test-run's checkpoint file holds the conversation resume continues, but never the
// values of the environment's secrets: they are markers, filled in again from resume's environment.

const TOKEN = 'ghp_s3cret/value+123';
const FORMS = [TOKEN, encodeURIComponent(TOKEN), 'ghp_s3cret'];
const AGENT = join(ROOT, 'fixtures/agents/coding-agent.yaml');
/** The gated write carries the token: its pending call, the script and the message all hold it. */
const SCRIPT = `- tool_calls: [{name: write_file, args: {path: CHANGELOG.md, content: "token ${TOKEN}\\n"}}]
- text: Done.
`;

describe("a paused test-run's checkpoint file", () => {
  it('holds markers for secret values, owner-only; resume fills them in from its environment, or refuses naming the variable', async () => {
    const dir = tempDir({ 'script.yaml': SCRIPT });
    const env = { AGENTCHECK_TEST_TOKEN: TOKEN };
    const paused = await runCli(
      ['test-run', '--agent', AGENT, '--workspace', join(ROOT, 'fixtures/workspaces/coding'), '--message', `Write the changelog, key ${TOKEN}`].concat([
        '--script',
        'script.yaml',
        '--terminal-tool',
        'write_file',
        '--spans',
        'out/spans.jsonl',
        '--json',
      ]),
      dir,
      env,
    );
    expect(paused.exitCode, paused.all).toBe(1);
    const runId = JSON.parse(paused.stdout).run_id as string;
    const file = join(dir, 'out', `${runId}.checkpoint.json`);
    const text = readFileSync(file, 'utf8');
    for (const form of FORMS) expect(text).not.toContain(form);
    expect(text).toContain('Write the changelog, key [secret:AGENTCHECK_TEST_TOKEN]');
    expect(Object.keys(JSON.parse(text).secrets)).toEqual(['AGENTCHECK_TEST_TOKEN']);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    // Without the variable, or with another value, resume cannot continue the same conversation.
    const unset = await runCli(['resume', runId, '--decision', 'approve', '--spans', 'out/spans.jsonl'], dir);
    expect(unset.exitCode, unset.all).toBe(2);
    expect(unset.stderr).toContain(
      `${file} at secrets.AGENTCHECK_TEST_TOKEN: the paused run holds the value of the secret variable AGENTCHECK_TEST_TOKEN, which is not set here`,
    );
    // The same refusal as unset's (resume, exit 2, on the built CLI): the CLI's entry in-process (runMain).
    const changed = await runMain(['resume', runId, '--decision', 'approve', '--spans', 'out/spans.jsonl'], dir, {
      AGENTCHECK_TEST_TOKEN: 'ghp_another/value+1',
    });
    expect(changed.exitCode, changed.all).toBe(2);
    expect(changed.stderr).toContain('the secret variable AGENTCHECK_TEST_TOKEN has another value than when the run paused');

    const resumed = await runCli(['resume', runId, '--decision', 'approve', '--spans', 'out/spans.jsonl', '--json'], dir, env);
    expect(resumed.exitCode, resumed.all).toBe(0);
    const traceId = JSON.parse(resumed.stdout).trace_id as string;
    // The approved call is the one that paused, with the real value: the workspace gets the token.
    expect(readFileSync(join(dir, 'out', `${runId}.workspace`, 'CHANGELOG.md'), 'utf8')).toBe(`token ${TOKEN}\n`);
    // The model is sent the same messages (scrubbed in the spans as every output is), never a marker.
    const chats = readFileSync(join(dir, 'out/spans.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { trace_id: string; name: string; attributes: Record<string, unknown> })
      .filter((span) => span.trace_id === traceId && span.name.startsWith('chat'));
    const sent = JSON.parse(chats[0].attributes['gen_ai.input.messages'] as string) as Array<{ role: string; parts: unknown }>;
    expect(JSON.stringify(sent[0])).toContain('Write the changelog, key [redacted]');
    expect(JSON.stringify(sent)).not.toContain('[secret:');
    for (const form of FORMS) expect(readFileSync(join(dir, 'out/spans.jsonl'), 'utf8') + resumed.all).not.toContain(form);
  });
});
