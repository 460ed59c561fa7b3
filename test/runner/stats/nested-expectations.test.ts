import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenarioFile } from '../../../src/runner/scenario/load-scenario-file.js';
import { runScenario } from '../../../src/runner/scenario/run-scenario.js';
import { runToolSelection } from '../../../src/runner/stats/tool-selection.js';
import { tempDir } from '../../helpers/temp-dir.js';

const AGENT = `id: chain-bot
agent:
  name: Chain bot
  tools:
    - {name: fetch, description: Fetch., read_only: true, parameters: {type: object}, returns: {rows: 2}}
    - {name: store, description: Store., parameters: {type: object}, returns: {ok: true}}
    - name: sync
      description: Fetch then store.
      chain: {steps: [{tool: fetch}, {tool: store}]}
`;

const SCENARIO = `name: sync runs its steps
agent: agent.yaml
inputs: {messages: [{role: user, content: sync}]}
model:
  script:
    - tool_calls: [{name: sync, args: {}}]
    - text: synced
expect:
  terminal_tool: sync
  checks:
    - tool_called: {tool: store, nested: true}
    - tool_sequence: {mode: in_order, nested: true, calls: [{tool: fetch}, {tool: store}]}
`;

describe('tool-selection statistics count nested expectations as their checks do', () => {
  it('a tool a nested: true check expected and a chain called is a hit, not a miss', async () => {
    const dir = tempDir({ 'agent.yaml': AGENT, 'a.scenario.yaml': SCENARIO });
    const [scenario] = loadScenarioFile({ file: join(dir, 'a.scenario.yaml'), root: dir }, { agents: new Map() });
    const row = await runScenario(scenario, { variant: 'base', revision: scenario.revision, repeat: 0 });
    expect(row.status, row.reason).toBe('pass');
    expect(row.nested_calls).toEqual({ fetch: 1, store: 1 });
    const selection = runToolSelection(row)!;
    expect(selection.missed).toEqual([]);
    expect(selection.hits).toBe(3);
    expect(selection.unexpected).toEqual([]);
  });
});
