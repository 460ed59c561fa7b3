import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenarioFile } from '../../../src/runner/scenario/load-scenario-file.js';
import { runScenario } from '../../../src/runner/scenario/run-scenario.js';
import { ATTR } from '../../../src/spans/conventions.js';
import type { SpanRecord } from '../../../src/spans/span-record.js';
import { tempDir } from '../../helpers/temp-dir.js';

const BUILD = `id: tn
agent:
  name: TN
  llm: {provider: scripted, model: s}
  tools:
    - {name: ping, description: p, parameters: {type: object, properties: {}}, returns: pong}
    - {name: pong, description: p, parameters: {type: object, properties: {}}, returns: ping}
flow:
  entry_point: a
  components:
    - {name: a, type: agent, toolset: [ping]}
    - {name: b, type: agent, toolset: [pong]}
  routers:
    - {from: a, to: b}
    - {from: b, to: end}
`;

describe('a flow numbers its model calls across components', () => {
  it('gives agentcheck.turn one index per model call of the run, so strict sequences see two responses', async () => {
    const dir = tempDir({
      'tn.yaml': BUILD,
      'tn.scenario.yaml': `name: tn
agent: tn.yaml
inputs: {messages: [{role: user, content: go}]}
model: {script: [{tool_calls: [{name: ping, args: {}}]}, {text: A done}, {tool_calls: [{name: pong, args: {}}]}, {text: B done}]}
expect:
  checks:
    - tool_sequence: {mode: strict, calls: [{tool: pong}, {tool: ping}]}
    - tool_sequence: {mode: strict, calls: [{tool: ping}, {tool: pong}]}
`,
    });
    const [scenario] = loadScenarioFile({ file: join(dir, 'tn.scenario.yaml'), root: dir }, { agents: new Map() });
    const spans: SpanRecord[] = [];
    const row = await runScenario(scenario, { variant: 'base', revision: scenario.revision, repeat: 0, onSpans: (s) => spans.push(...s) });
    const turns = (prefix: string) => spans.filter((span) => span.name.startsWith(prefix)).map((span) => span.attributes[ATTR.turn]);
    expect(turns('chat')).toEqual([0, 1, 2, 3]);
    expect(spans.filter((span) => span.name.startsWith('execute_tool')).map((span) => `${span.name}@${String(span.attributes[ATTR.turn])}`)).toEqual([
      'execute_tool ping@0',
      'execute_tool pong@2',
    ]);
    // ping and pong came in two responses: the reversed order does not match strictly.
    expect(row.checks.map((check) => check.status)).toEqual(['fail', 'pass']);
  });
});

describe("the agent's max_turns in a flow", () => {
  it('bounds the model calls of the whole invoke, across components, as it does without a flow', async () => {
    const dir = tempDir({
      'mt.yaml': `id: mt
agent:
  name: MT
  llm: {provider: scripted, model: s}
  max_turns: 2
flow:
  entry_point: a
  components:
    - {name: a, type: agent}
    - {name: b, type: agent}
  routers:
    - {from: a, condition: {input: "context:a.final_answer", routes: {again: a, default_route: b}}}
    - {from: b, to: end}
`,
      'mt.scenario.yaml': `name: mt
agent: mt.yaml
inputs: {messages: [{role: user, content: go}]}
model: {script: [{text: again}, {text: again}, {text: A}, {text: B}]}
expect: {checks: [{max_turns: 2}]}
`,
    });
    const [scenario] = loadScenarioFile({ file: join(dir, 'mt.scenario.yaml'), root: dir }, { agents: new Map() });
    const row = await runScenario(scenario, { variant: 'base', revision: scenario.revision, repeat: 0 });
    expect(row.test_run?.stop_reason).toBe('max_turns');
    expect(row.turns).toBe(2);
    expect(row.checks[0].status).toBe('pass');
  });
});
