import { describe, expect, it } from 'vitest';
import { runCli } from './cli.js';
import { tempDir } from '../helpers/temp-dir.js';

const AGENT = `id: many-calls
agent:
  name: Many calls
  llm: {provider: scripted, model: m}
  tools:
    - {name: echo, description: Echoes., read_only: true, parameters: {type: object}, command: {argv: [echo, hi]}}
    - {name: finish, description: Finish., parameters: {type: object}, returns: {done: true}}
`;

describe('many command calls in one turn', () => {
  it("runs 12 parallel command calls without a listener-leak warning on the run's abort signal", async () => {
    const calls = Array.from({ length: 12 }, () => '{name: echo, args: {}}').join(', ');
    const scenario = `name: many
agent: agent.yaml
inputs: {messages: [{role: user, content: go}]}
model:
  script:
    - tool_calls: [${calls}]
    - tool_calls: [{name: finish, args: {}}]
    - text: done
expect:
  terminal_tool: finish
  checks:
    - tool_called: {tool: echo, min: 12, max: 12}
`;
    const dir = tempDir({ 'agent.yaml': AGENT, 'many.scenario.yaml': scenario });
    const result = await runCli(['run', '.', '--out', 'out', '--reporter', 'json'], dir);
    expect(result.exitCode, result.all).toBe(0);
    expect(result.stderr).not.toContain('MaxListenersExceededWarning');
  });
});
