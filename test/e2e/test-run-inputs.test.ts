import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';
import { AGENT_YAML, runCli } from './cli.js';

const SCRIPT = '- tool_calls: [{name: finish, args: {}}]\n- text: done\n';
const RUN = ['test-run', '--agent', 'agent.yaml', '--message', 'go', '--script', 'script.yaml', '--terminal-tool', 'finish', '--json'];

describe('agentcheck test-run: what its inputs mean', () => {
  it('gives every delta that changes nothing a null delta_hash, however it is spelt', async () => {
    const dir = tempDir({
      'agent.yaml': AGENT_YAML,
      'script.yaml': SCRIPT,
      'empty.yaml': '{}\n',
      'empty-keys.yaml': 'set: {}\nremove: []\n',
      'same.yaml': 'set: {agent: {name: E2E bot}}\n',
      'real.yaml': 'set: {agent: {max_turns: 4}}\n',
    });
    const hashes: Record<string, unknown> = {};
    for (const delta of ['empty.yaml', 'empty-keys.yaml', 'same.yaml', 'real.yaml']) {
      const result = await runCli([...RUN, '--delta', delta], dir);
      expect(result.exitCode, result.stderr).toBe(0);
      hashes[delta] = JSON.parse(result.stdout).resolved.delta_hash;
    }
    expect(hashes).toEqual({ 'empty.yaml': null, 'empty-keys.yaml': null, 'same.yaml': null, 'real.yaml': expect.stringMatching(/^[0-9a-f]{16}$/) });
  });

  it('refuses an empty or blank message given by --inputs as it refuses an empty --message, in the same words', async () => {
    const dir = tempDir({
      'agent.yaml': AGENT_YAML,
      'script.yaml': SCRIPT,
      'inputs.yaml': 'messages:\n  - {role: user, content: hi}\n  - {role: assistant, content: "  "}\n  - {role: user, content: ""}\n',
    });
    const run = RUN.filter((arg) => arg !== '--message' && arg !== 'go');
    const inputs = await runCli([...run, '--inputs', 'inputs.yaml'], dir);
    expect(inputs.exitCode).toBe(2);
    expect(inputs.stdout).toBe('');
    const lines = inputs.stderr.trim().split('\n');
    expect(lines).toEqual([
      expect.stringMatching(/inputs\.yaml:3:\d+ at messages\[1\]\.content: the message is empty; give the message text$/),
      expect.stringMatching(/inputs\.yaml:4:\d+ at messages\[2\]\.content: the message is empty; give the message text$/),
    ]);
    const message = await runCli([...run, '--message', ' '], dir);
    expect(message.exitCode).toBe(2);
    expect(message.stderr).toContain('--message is empty; give the message text');
  });

  it('says a delta setting part of agent.llm on a build without one must give provider and model too', async () => {
    const dir = tempDir({
      'agent.yaml': 'id: mini\nagent:\n  name: Mini\n  tools: [{name: finish, description: f, returns: {done: true}}]\n',
      'script.yaml': SCRIPT,
      'delta.yaml': 'set:\n  agent:\n    llm: {parameters: {temperature: 0.5}}\n',
    });
    const result = await runCli([...RUN, '--delta', 'delta.yaml'], dir);
    expect(result.exitCode).toBe(2);
    expect(result.stderr.trim()).toMatch(
      /^agentcheck: invalid input: .*delta\.yaml:3:10 at set\.agent\.llm: after applying the delta: the build has no agent\.llm \(it uses the default model, scripted\/scripted\), so a delta that sets part of agent\.llm must give agent\.llm\.provider and agent\.llm\.model too$/,
    );
  });
});
