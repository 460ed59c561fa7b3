import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/errors.js';
import { ScriptedModel } from '../../../src/engine/providers/scripted.js';
import type { LoadContext } from '../../../src/runner/scenario/load-context.js';
import { loadScenarioFile } from '../../../src/runner/scenario/load-scenario-file.js';
import { runScenario } from '../../../src/runner/scenario/run-scenario.js';
import type { Scenario } from '../../../src/runner/scenario/scenario.js';
import { tempDir } from '../../helpers/temp-dir.js';

const AGENT = `id: bot
agent:
  name: Bot
  permissions: {mode: ask}
  tools:
    - {name: lookup, description: Look up., parameters: {type: object, properties: {id: {type: string}}, required: [id]}, returns: {ok: true}}
    - {name: delete_order, description: Delete., returns: {deleted: true}}
    - name: tidy
      chain: {steps: [{tool: write_file, inputs: {path: a.txt, content: x}}]}
  mcps:
    - {name: fs, command: [node, server.js], tools: [read_text_file]}
    - {name: any, command: [node, server.js]}
flow:
  entry_point: review
  components:
    - {name: review, type: human_input}
    - {name: store, type: deterministic_step, tool_name: echo, inputs: [{literal: hi, as: text}]}
  routers:
    - {from: review, to: store}
    - {from: store, to: end}
`;
/** AGENT without its MCP server that has no `tools` list: every name is known at load. */
const LISTED_AGENT = AGENT.replace('    - {name: any, command: [node, server.js]}\n', '');
const PLAIN_AGENT =
  'id: plain\nagent:\n  name: Plain\n  tools: [{name: lookup, parameters: {type: object}, returns: {ok: true}}, {name: delete_order, returns: 1}]\n';

function load(scenarioYaml: string, agent = AGENT, context: Partial<LoadContext> = {}): Scenario[] {
  const dir = tempDir({ 'agent.yaml': agent, 'a.scenarios.yaml': scenarioYaml });
  return loadScenarioFile({ file: join(dir, 'a.scenarios.yaml'), root: dir }, { agents: new Map(), ...context });
}

function loadError(scenarioYaml: string, agent = AGENT, context: Partial<LoadContext> = {}): ConfigError {
  try {
    load(scenarioYaml, agent, context);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

const head = 'name: s\nagent: agent.yaml\ninputs: {messages: [{role: user, content: go}]}\n';

describe('approvals.tools must name something the agent can be asked about', () => {
  it('a typo is a located error listing the agent tools', () => {
    const error = loadError(`${head}approvals:\n  default: approve\n  tools: {delete_ordr: deny}\n`, LISTED_AGENT);
    expect(error.path).toBe('approvals.tools.delete_ordr');
    expect(error.line).toBe(6);
    expect(error.expected).toBe(
      '"delete_ordr" names no tool of the agent; expected one of: lookup, delete_order, tidy, write_file, review, echo, mcp__fs__read_text_file; did you mean "delete_order"?',
    );
  });

  it('with an MCP server without a tools list, lists its tools as mcp__<server>__* and leaves a tool part alone to the run', () => {
    const error = loadError(`${head}approvals:\n  default: approve\n  tools: {mcp__fs__read_txt_file: deny}\n`);
    expect(error.expected).toBe(
      '"mcp__fs__read_txt_file" names no tool of the agent; expected one of: lookup, delete_order, tidy, write_file, review, echo, mcp__fs__read_text_file, mcp__any__*; did you mean "mcp__fs__read_text_file"?',
    );
    // A near miss of the server whose tools only the run knows: the name under that server.
    expect(loadError(`${head}approvals: {tools: {mcp__an__write_note: deny}}\n`).expected).toMatch(/; did you mean "mcp__any__write_note"\?$/);
    // `delete_ordr` may be a tool of server "any": checked once the run has its list (docs/mcp.md).
    const [scenario] = load(`${head}approvals: {tools: {delete_ordr: deny, read_note: approve}}\n`);
    expect(scenario.approvals?.tools).toEqual({ delete_ordr: 'deny', read_note: 'approve' });
    // Its answer is still held to what a tool's gate takes.
    expect(loadError(`${head}approvals: {tools: {read_note: yes}}\n`).expected).toContain(
      'a tool\'s approval gate takes "approve", "deny", "reject"; got "yes"',
    );
  });

  it('never offers load_skill, which it refuses as never gated, not even to a near miss', () => {
    const error = loadError(`${head}approvals: {tools: {load_skil: deny}}\n`, LISTED_AGENT);
    expect(error.expected).toMatch(/^"load_skil" names no tool of the agent; expected one of: [^;]*mcp__fs__read_text_file$/);
    expect(error.expected).not.toContain('load_skill');
  });

  it('in shared defaults, the error points at the defaults', () => {
    const error = loadError(`defaults:\n  approvals: {tools: {nope: deny}}\nscenarios:\n  - ${head.trim().replace(/\n/g, '\n    ')}\n`, LISTED_AGENT);
    expect(error.path).toBe('defaults.approvals.tools.nope');
  });

  it('accepts agent tools, built-ins the build calls, human_input components and MCP tools; refuses load_skill, which is never gated', () => {
    const approvals =
      '{delete_order: deny, write_file: approve, echo: approve, review: "looks fine", mcp__fs__read_text_file: approve, mcp__any__whatever: deny}';
    expect(load(`${head}approvals: {tools: ${approvals}}\n`)[0].approvals?.tools?.review).toBe('looks fine');
    const skill = loadError(`${head}approvals: {tools: {load_skill: deny}}\n`);
    expect(skill.path).toBe('approvals.tools.load_skill');
    expect(skill.expected).toContain('"load_skill" is never gated');
    expect(loadError(`${head}approvals: {tools: {mcp__fs__write_file: deny}}\n`).path).toBe('approvals.tools.mcp__fs__write_file');
    expect(loadError(`${head}approvals: {tools: {read_file: deny}}\n`, LISTED_AGENT).path).toBe('approvals.tools.read_file');
  });

  it('refuses a flow plan component, which is never gated (the calls inside it are), and lists none as a tool to answer', () => {
    const planAgent = `id: planned
agent: {name: Planned, tools: [{name: lookup, returns: {ok: true}}]}
flow:
  entry_point: p
  components: [{name: p, type: plan, plan: {steps: [{tools: [{name: lookup}]}]}}]
  routers: [{from: p, to: end}]
`;
    const error = loadError(`${head}approvals: {tools: {p: approve}}\n`, planAgent);
    expect(error.path).toBe('approvals.tools.p');
    expect(error.expected).toBe(
      '"p" is a plan component, which is never gated (each call inside it is, by its tool\'s name), so an answer for it has no effect; remove it',
    );
    expect(loadError(`${head}approvals: {tools: {pp: approve}}\n`, planAgent).expected).toBe('"pp" names no tool of the agent; expected one of: lookup');
    expect(load(`${head}approvals: {tools: {lookup: deny}}\n`, planAgent)[0].approvals?.tools).toEqual({ lookup: 'deny' });
  });

  it('a tool a suite variant adds may be answered when the loader is given the variants', () => {
    const scenario = `${head}approvals: {tools: {send_email: deny}}\n`;
    expect(loadError(scenario, PLAIN_AGENT).path).toBe('approvals.tools.send_email');
    const variants = { mail: { set: { agent: { tools: [{ name: 'send_email', returns: 1 }] } } }, broken: { remove: ['agent.nothing'] } };
    expect(load(scenario, PLAIN_AGENT, { variants })).toHaveLength(1);
  });
});

describe('script entries', () => {
  it('duplicate tool call ids within one entry are a located error', () => {
    const error = loadError(
      `${head}model:\n  script:\n    - tool_calls:\n        - {name: lookup, args: {id: "1"}, id: c1}\n        - {name: lookup, args: {id: "2"}, id: c1}\n`,
      PLAIN_AGENT,
    );
    expect(error.path).toBe('model.script[0].tool_calls[1].id');
    expect(error.line).toBe(8);
    expect(error.expected).toContain('duplicate tool call id "c1" (also tool_calls[0])');
  });

  it('the same id in different entries is fine', () => {
    expect(
      load(
        `${head}model:\n  script:\n    - tool_calls: [{name: lookup, args: {id: "1"}, id: c1}]\n    - tool_calls: [{name: lookup, args: {id: "2"}, id: c1}]\n`,
        PLAIN_AGENT,
      ),
    ).toHaveLength(1);
  });

  it('args: null reaches the tool as null, an invalid-arguments error; missing args mean {}', async () => {
    const model = new ScriptedModel([{ tool_calls: [{ name: 'a', args: null }, { name: 'b' }, { name: 'c', id: 'call_3' }, { name: 'd' }] }]);
    const response = await model.generate({ system: '', messages: [], tools: [], parameters: {} });
    expect(response.toolCalls.map((call) => call.args)).toEqual([null, {}, {}, {}]);
    // Generated ids never repeat one the script gives.
    expect(response.toolCalls.map((call) => call.id)).toEqual(['call_1', 'call_2', 'call_3', 'call_4']);
    // Nor one the transcript already holds: a resumed run's new model goes on from there.
    const resumed = new ScriptedModel([{ tool_calls: [{ name: 'a' }] }]);
    const transcript = [
      {
        role: 'assistant' as const,
        content: '',
        tool_calls: [
          { tool_call_id: 'call_1', tool_name: 'x', input: {} },
          { tool_call_id: 'call_2', tool_name: 'y', input: {} },
        ],
      },
    ];
    const next = await resumed.generate({ system: '', messages: transcript, tools: [], parameters: {} });
    expect(next.toolCalls.map((call) => call.id)).toEqual(['call_3']);

    const [scenario] = load(`${head}model:\n  script:\n    - tool_calls: [{name: lookup, args: null}]\n    - text: done\n`, PLAIN_AGENT);
    const row = await runScenario(scenario, { variant: 'base', revision: scenario.revision, repeat: 0 });
    expect(row.test_run?.tools).toEqual([{ name: 'lookup', called: 1, returned: 0, errors: 1 }]);
    expect(row.test_run?.verdict).toBe('failed');
    expect(row.test_run?.verdict_reason).toContain('invalid_arguments');
  });
});
