import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenarioFile } from '../../../src/runner/scenario/load-scenario-file.js';
import { runScenario } from '../../../src/runner/scenario/run-scenario.js';
import type { SpanRecord } from '../../../src/spans/span-record.js';
import { tempDir } from '../../helpers/temp-dir.js';

/** Runs one scenario file's scenario against `build`; returns its spans by name. */
async function spansOf(build: string, script: string): Promise<Map<string, SpanRecord>> {
  const dir = tempDir({
    'b.yaml': build,
    's.scenario.yaml': `name: s\nagent: b.yaml\ninputs: {messages: [{role: user, content: go}]}\nmodel: {script: ${script}}\n`,
  });
  const [scenario] = loadScenarioFile({ file: join(dir, 's.scenario.yaml'), root: dir }, { agents: new Map() });
  const spans: SpanRecord[] = [];
  await runScenario(scenario, { variant: 'base', revision: scenario.revision, repeat: 0, onSpans: (recorded) => spans.push(...recorded) });
  return new Map(spans.map((span) => [span.name, span]));
}

describe('flow spans of a run that ended with an error', () => {
  it("fail the agent component that ended it, with the run's error type", async () => {
    const spans = await spansOf(
      `id: me
agent: {name: ME, llm: {provider: scripted, model: s}}
flow:
  entry_point: fixer
  components: [{name: fixer, type: agent}]
  routers: [{from: fixer, to: end}]
`,
      '[{error: {message: boom, status: 400}}]',
    );
    for (const name of ['component fixer', 'invoke_workflow me', 'invoke_agent ME']) {
      expect(spans.get(name), name).toMatchObject({ status: 'error', attributes: expect.objectContaining({ 'error.type': 'MODEL_REQUEST_REJECTED' }) });
    }
  });

  it('spell a flow error as the root does on the component and workflow spans', async () => {
    const spans = await spansOf(
      `id: mi
agent:
  name: MI
  llm: {provider: scripted, model: s}
  tools: [{name: ping, description: p, parameters: {type: object, properties: {x: {type: string}}}, returns: pong}]
flow:
  entry_point: s
  components: [{name: s, type: deterministic_step, tool_name: ping, inputs: [{from: "context:nothere", as: x}]}]
  routers: [{from: s, to: end}]
`,
      '[{text: x}]',
    );
    for (const name of ['component s', 'invoke_workflow mi', 'invoke_agent MI']) {
      expect(spans.get(name)?.attributes['error.type'], name).toBe('FLOW_MISSING_INPUT');
    }
  });
});

describe('a flow answered through scenario resume', () => {
  it('joins into one workflow span and one span per component execution, with the answers the pauses got', async () => {
    const dir = tempDir({
      'ws/f.txt': 'orig',
      'fgated.yaml': `id: fgated
agent:
  name: FG
  llm: {provider: scripted, model: s}
  permissions: {mode: ask}
  tools: [{name: write_file, description: w, builtin: write_file}]
flow:
  entry_point: w
  components:
    - {name: w, type: deterministic_step, tool_name: write_file, inputs: [{literal: f.txt, as: path}, {literal: flowed, as: content}]}
    - {name: review, type: human_input}
    - {name: fix, type: agent, toolset: [write_file]}
  routers:
    - {from: w, to: review}
    - {from: review, condition: {input: "context:review.decision", routes: {approve: fix, default_route: end}}}
    - {from: fix, to: end}
`,
      's.scenario.yaml': `name: three pauses
agent: fgated.yaml
workspace: ws
inputs: {messages: [{role: user, content: go}]}
model: {script: [{tool_calls: [{name: write_file, args: {path: g.txt, content: agent}}]}, {text: done}]}
resume: [{decision: approve}, {decision: approve}, {decision: approve}]
expect:
  checks:
    - spans: {query: {filtering: {field: name, operator: startswith, value: "invoke_workflow"}}, count: {equals: 1}}
    - spans: {query: {filtering: {field: name, operator: startswith, value: "component "}}, count: {equals: 3}}
    - spans: {query: {filtering: {field: attributes, key: agentcheck.human_input.decision, operator: is, value: pending}}, count: {max: 0}}
`,
    });
    const [scenario] = loadScenarioFile({ file: join(dir, 's.scenario.yaml'), root: dir }, { agents: new Map() });
    const row = await runScenario(scenario, { variant: 'base', revision: scenario.revision, repeat: 0 });
    expect(row.checks.map((check) => `${check.id}: ${check.status} ${check.reason}`)).toEqual([
      expect.stringMatching(/^spans#0: pass/),
      expect.stringMatching(/^spans#1: pass/),
      expect.stringMatching(/^spans#2: pass/),
    ]);
    expect(row.status).toBe('pass');
  });
});
