import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';
import { runCli } from './cli.js';

// Names that are also members of Object.prototype (`__proto__`, `constructor`, `toString`) are
// ordinary names in every file agentcheck reads: a component, a tool or a key called so is data.

describe('flow components named like Object.prototype members (built CLI)', () => {
  it('runs a flow whose components are named toString, __proto__ and constructor, their state readable by name', async () => {
    const dir = tempDir({
      'agent.yaml': `id: proto-flow
agent:
  name: Proto flow
  llm: {provider: scripted, model: s}
  tools:
    - {name: lookup, description: Look up., parameters: {type: object}, returns: {status: ok}}
flow:
  entry_point: toString
  components:
    - {name: toString, type: deterministic_step, tool_name: lookup}
    - {name: __proto__, type: agent, prompt: Summarize, inputs: ["context:toString.tool_result"], toolset: [lookup]}
    - {name: constructor, type: agent, prompt: Check, inputs: ["context:__proto__.final_answer"], toolset: [lookup]}
  routers:
    - {from: toString, to: __proto__}
    - {from: __proto__, to: constructor}
    - {from: constructor, to: end}
`,
      'flow.scenario.yaml': `name: proto names
agent: agent.yaml
inputs: {messages: [{role: user, content: go}]}
model: {script: [{text: all good}, {text: checked}]}
expect:
  checks:
    - state: {key: "context:toString.tool_result", equals: {status: ok}}
    - state: {key: "context:__proto__.final_answer", equals: all good}
    - state: {key: "context:constructor.final_answer", equals: checked}
    - state: {key: "conversation_history:__proto__.1.content", equals: all good}
    - state: {key: "conversation_history:constructor.1.content", equals: checked}
    - state: {key: status, equals: completed}
`,
    });
    const result = await runCli(['run', 'flow.scenario.yaml', '--out', 'out', '--reporter', 'table'], dir);
    expect(result.all).toContain('1 scenario: 1 passed');
    expect(result.exitCode, result.all).toBe(0);
  });
});
