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
