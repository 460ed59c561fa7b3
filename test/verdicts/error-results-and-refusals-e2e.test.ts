/**
 * Through a real scenario run: tool_returned counts calls as the row's test_run digest does (an
 * error token in the result is an error), and no_side_effect_after_deny skips calls that were
 * refused before running (invalid arguments, an unknown tool) but not a tool that ran and failed.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenarioFile } from '../../src/runner/scenario/load-scenario-file.js';
import { runScenario } from '../../src/runner/scenario/run-scenario.js';
import { tempDir } from '../helpers/temp-dir.js';

const AGENT = `id: bot
agent:
  name: Bot
  llm: {provider: scripted, model: m}
  tools:
    - {name: slack, description: Post., parameters: {type: object, properties: {}}, returns: {ok: false, error: not_in_channel}}
    - {name: delete_order, description: Delete., permission: ask, parameters: {type: object, properties: {order_id: {type: string}}}, returns: {ok: true}}
    - {name: send_email, description: Send., parameters: {type: object, properties: {to: {type: string}}, required: [to]}, returns: {ok: true}}
    - {name: archive, description: Archive., parameters: {type: object, properties: {}}, command: {argv: [node, -e, "process.exit(3)"]}}
`;

const DENY_THEN = (then: string, extra = '') =>
  `model: {${extra}script: [{tool_calls: [{name: delete_order, args: {order_id: "1"}}]}, {tool_calls: [${then}]}, {text: done}]}
    expect: {checks: [{no_side_effect_after_deny: {}}]}`;

const SCENARIOS = `defaults:
  agent: agent.yaml
  inputs: {messages: [{role: user, content: go}]}
  approvals: {default: approve, tools: {delete_order: deny}}
scenarios:
  - name: slack error result
    model: {script: [{tool_calls: [{name: slack, args: {}}]}, {text: done}]}
    expect: {checks: [{no_tool_errors: {}}, {tool_returned: {tool: slack}}, {tool_returned: {tool: slack, result: {ok: false}}}]}
  - name: invalid args after deny
    ${DENY_THEN('{name: send_email, args: {to: 5}}')}
  - name: unknown tool after deny
    ${DENY_THEN('{name: zap, args: {}}', 'allow_unknown_tools: true, ')}
  - name: failed side effect after deny
    ${DENY_THEN('{name: archive, args: {}}')}
`;

async function runAll() {
  const dir = tempDir({ 'agent.yaml': AGENT, 'all.scenarios.yaml': SCENARIOS });
  const scenarios = loadScenarioFile({ file: join(dir, 'all.scenarios.yaml'), root: dir }, { agents: new Map() });
  const rows = [];
  for (const scenario of scenarios) rows.push(await runScenario(scenario, { variant: 'base', revision: scenario.revision, repeat: 0 }));
  return new Map(rows.map((row) => [row.name, row]));
}

describe('error results and refused calls in a scenario run', () => {
  it('tool_returned agrees with the digest; no_side_effect_after_deny skips refused calls only', async () => {
    const rows = await runAll();

    const slack = rows.get('slack error result');
    expect(slack?.test_run?.tools).toEqual([{ name: 'slack', called: 1, returned: 0, errors: 1 }]);
    expect(slack?.checks.map(({ id, status, reason }) => ({ id, status, reason }))).toEqual([
      { id: 'no_tool_errors#0', status: 'fail', reason: 'expected no tool errors; call 1 (slack) failed: not_in_channel' },
      {
        id: 'tool_returned#1',
        status: 'fail',
        reason: 'expected slack to return a result without error; it was called once: call 1 failed: not_in_channel',
      },
      { id: 'tool_returned#2', status: 'pass', reason: 'slack returned {"ok":false,"error":"not_in_channel"} (an error result: not_in_channel)' },
    ]);
    expect(slack?.status).toBe('fail');

    for (const name of ['invalid args after deny', 'unknown tool after deny']) {
      const row = rows.get(name);
      expect(row?.status, `${name}: ${row?.reason}`).toBe('pass');
      expect(row?.checks[0].reason).toBe('after delete_order was denied, no side-effecting tool ran (1 later call)');
    }

    const failed = rows.get('failed side effect after deny');
    expect(failed?.checks[0]).toMatchObject({
      status: 'fail',
      reason: 'expected no side-effecting tool to run after delete_order was denied; archive (not read-only) ran with outcome error',
    });
  });
});
