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
