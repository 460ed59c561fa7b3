import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';
import { runCli } from './cli.js';

/** `finish` returns a body that a team knows means "not done" (queued_for_review). */
const AGENT = `id: tokens-bot
agent:
  name: Tokens bot
  llm: {provider: scripted, model: s}
  tools: [{name: finish, description: Finish., parameters: {type: object}, returns: {done: false, state: queued_for_review}}]
`;
const SCRIPT = '- tool_calls: [{name: finish, args: {}}]\n- text: done\n';

describe('agentcheck test-run --error-token', () => {
  const base = ['test-run', '--agent', 'agent.yaml', '--message', 'go', '--script', 'script.yaml', '--terminal-tool', 'finish', '--json'];

  it("replaces the default tokens, as a scenario's expect.error_tokens does: a result holding one fails the verdict", async () => {
    const cwd = tempDir({ 'agent.yaml': AGENT, 'script.yaml': SCRIPT });
    const plain = await runCli(base, cwd);
    expect(plain.exitCode, plain.all).toBe(0);
    expect(JSON.parse(plain.stdout)).toMatchObject({ verdict: 'pass' });

    const flagged = await runCli([...base, '--error-token', 'queued_for_review', '--error-token', '"done": false'], cwd);
    expect(flagged.exitCode, flagged.all).toBe(1);
    const result = JSON.parse(flagged.stdout) as { verdict: string; verdict_reason: string; tools: unknown[] };
    expect(result.verdict).toBe('failed');
    expect(result.verdict_reason).toBe('tool finish failed: queued_for_review');
    expect(result.tools).toEqual([{ name: 'finish', called: 1, returned: 0, errors: 1 }]);
  });

  it('refuses an empty token before running', async () => {
    const result = await runCli([...base, '--error-token', ''], tempDir({ 'agent.yaml': AGENT, 'script.yaml': SCRIPT }));
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("option '--error-token <text>' argument '' is invalid. expected the text of an error token, got an empty value");
  });
});
