import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';
import { runCli } from './cli.js';

const AGENT = `id: bot
agent:
  name: Bot
  llm: {provider: scripted, model: s}
  tools: [{name: lookup, description: Look up., parameters: {type: object}, returns: {ok: true}}]
`;
const SCRIPT = '- tool_calls: [{name: lookup, args: {}}]\n- text: done\n';
const unsupported = (written: string, flag: string) =>
  `regular expression ${written}: flag "${flag}" not supported; use i, m and s (g and y are accepted and ignored; the others turn off linear-time matching)`;

// Every letter after a /regex/'s closing slash is a flag (docs/verdicts.md): an uppercase one is
// refused as an unsupported flag, not read as a tool name that names no tool.
describe('a /regex/ tool name with an uppercase flag', () => {
  it('is refused naming the flag, in test-run --terminal-tool and in a check', async () => {
    const dir = tempDir({
      'agent.yaml': AGENT,
      'script.yaml': SCRIPT,
      's.scenario.yaml': `name: s\nagent: agent.yaml\ninputs: {messages: [{role: user, content: hi}]}\nmodel: {script: [{text: ok}]}\nexpect: {checks: [{tool_called: {tool: "/lookup/iI"}}]}\n`,
    });
    const flag = await runCli(['test-run', '--agent', 'agent.yaml', '--message', 'go', '--script', 'script.yaml', '--terminal-tool', '/lookup/I'], dir);
    expect(flag.exitCode, flag.all).toBe(2);
    expect(flag.stderr).toContain(`--terminal-tool: ${unsupported('/lookup/I', 'I')}`);
    expect(flag.stderr).not.toContain('names no tool');
    const check = await runCli(['validate', 's.scenario.yaml'], dir);
    expect(check.exitCode, check.all).toBe(2);
    expect(check.all).toContain(`at expect.checks[0].tool_called.tool: ${unsupported('/lookup/iI', 'I')}`);
  });
});
