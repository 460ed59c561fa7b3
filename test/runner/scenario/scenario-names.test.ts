import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigErrors } from '../../../src/config/errors.js';
import type { LoadContext } from '../../../src/runner/scenario/load-context.js';
import { loadScenarioFile } from '../../../src/runner/scenario/load-scenario-file.js';
import type { Scenario } from '../../../src/runner/scenario/scenario.js';
import { loadSuite } from '../../../src/runner/suite/load-suite.js';
import { emptySuiteConfig } from '../../../src/runner/suite/suite-config.js';
import { configErrorOf } from '../../helpers/config-error.js';
import { tempDir } from '../../helpers/temp-dir.js';

const AGENT = `id: tracker
agent:
  name: Tracker
  tools:
    - name: close_issue
      parameters: {type: object, properties: {number: {type: integer}, reason: {type: string}}, required: [number]}
      returns: {closed: true}
    - {name: label_issue, parameters: {type: object, properties: {number: {type: integer}}, additionalProperties: true}, returns: {ok: true}}
    - {name: search, returns: []}
    - name: tidy
      chain: {steps: [{tool: write_file, inputs: {path: a.txt, content: x}}]}
`;
const MCP_AGENT = 'id: m\nagent:\n  name: M\n  tools: [{name: search, returns: []}]\n  mcps: [{name: gh, command: [node, s.js]}]\n';
const FLOW_AGENT = `id: f
agent: {name: F, tools: [{name: search, returns: []}]}
flow:
  entry_point: store
  components: [{name: store, type: deterministic_step, tool_name: echo, inputs: [{literal: hi, as: text}]}]
  routers: [{from: store, to: end}]
`;

// load_skill is offered only with on_demand delivery and a skill (docs/skills.md, Delivery).
const SKILLED_AGENT = `${AGENT}  skills: [{name: beta, description: Beta skill.}]\n`;
const ON_DEMAND: Partial<LoadContext> = { skills: { delivery: 'on_demand' } };

function load(scenarioYaml: string, agent = AGENT, context: Partial<LoadContext> = {}, files: Record<string, string> = {}): Scenario[] {
  const dir = tempDir({ 'agent.yaml': agent, 'a.scenarios.yaml': scenarioYaml, ...files });
  return loadScenarioFile({ file: join(dir, 'a.scenarios.yaml'), root: dir }, { agents: new Map(), ...context });
}

const head = 'name: s\nagent: agent.yaml\ninputs: {messages: [{role: user, content: go}]}\n';
const checks = (...items: string[]) => `${head}expect:\n  checks:\n${items.map((item) => `    - ${item}\n`).join('')}`;

describe('every tool name a scenario uses names a tool of its build', () => {
  it('a misspelt tool_not_called tool is a located error with a suggestion', () => {
    const error = configErrorOf(() => load(checks('tool_not_called: {tool: close_isue}')));
    expect(error.path).toBe('expect.checks[0].tool_not_called.tool');
    expect(error.line).toBe(6);
    expect(error.expected).toContain('names no tool of the agent: "close_isue"');
    expect(error.expected).toContain('did you mean "close_issue"?');
  });

  it('terminal_tool, tool_sequence calls, tool_order and approval are checked too', () => {
    const error = configErrorOf(() =>
      load(
        `${head}expect:\n  terminal_tool: clos_issue\n  checks:\n    - tool_sequence: {calls: [{tool: serch}]}\n    - tool_order: {before: [search], after: lable_issue}\n    - approval: {tool: close_issu}\n    - tool_returned: {tool: tdy}\n`,
      ),
    );
    expect(error).toBeInstanceOf(ConfigErrors);
    expect((error as ConfigErrors).errors.map((e) => e.path)).toEqual([
      'expect.terminal_tool',
      'expect.checks[0].tool_sequence.calls[0].tool',
      'expect.checks[1].tool_order.after',
      'expect.checks[2].approval.tool',
      'expect.checks[3].tool_returned.tool',
    ]);
  });

  it('refuses a tool_not_called of a tool only a chain or plan calls, unless nested: true: it could only pass', () => {
    const error = configErrorOf(() => load(checks('tool_not_called: {tool: write_file}')));
    expect(error.path).toBe('expect.checks[0].tool_not_called.tool');
    expect(error.line).toBe(6);
    expect(error.expected).toBe(
      `a tool_not_called check names "write_file", which is called only inside a chain or plan (by tidy); without nested: true it sees only the model's and flow steps' calls, so it could only pass, also when write_file ran; add nested: true (tool_not_called: {tool: write_file, nested: true}) to check that it never ran, also inside a chain or plan`,
    );
    expect(configErrorOf(() => load(checks('tool_not_called: {tool: "/^write_/", args: {path: a.txt}}'))).expected).toContain(
      'a tool_not_called check matches only tools called inside a chain or plan: "/^write_/" (by tidy); without nested: true',
    );
    // Beside a problem of another parameter of the same check (one pass).
    const both = configErrorOf(() => load(checks('tool_not_called: {tool: write_file, nested: "yes"}')));
    expect(both).toBeInstanceOf(ConfigErrors);
    expect((both as ConfigErrors).errors.map((one) => `${one.path}: ${one.expected}`).sort()).toEqual([
      expect.stringMatching(/^expect\.checks\[0\]\.tool_not_called\.nested: expected boolean/),
      expect.stringMatching(/^expect\.checks\[0\]\.tool_not_called\.tool: a tool_not_called check names "write_file", which is called only inside/),
    ]);
    // Accepted: with nested: true; a tool the model (tidy, close_issue) or a flow step (echo) calls; one a variant offers the model.
    expect(load(checks('tool_not_called: {tool: write_file, nested: true}'))).toHaveLength(1);
    expect(load(checks('tool_not_called: {tool: tidy}', 'tool_not_called: {tool: close_issue}'))).toHaveLength(1);
    expect(load(checks('tool_not_called: {tool: echo}'), FLOW_AGENT)).toHaveLength(1);
    const variants = { v: { set: { agent: { tools: [{ name: 'write_file', builtin: 'write_file' }] } } } };
    expect(load(checks('tool_not_called: {tool: write_file}'), AGENT, { variants })).toHaveLength(1);
    // Other tool checks could only fail, never pass: their reasons say why at run time instead.
    expect(load(checks('tool_called: {tool: write_file}', 'tool_returned: {tool: write_file}'))).toHaveLength(1);
  });

  it('refuses a human_input component as a tool name (never a call), and accepts it in approvals', () => {
    const humanFlow = `id: h
agent: {name: H, tools: [{name: search, returns: []}]}
flow:
  entry_point: review
  components: [{name: review, type: human_input}]
  routers: [{from: review, to: end}]
`;
    const error = configErrorOf(() => load(checks('approval: {tool: review, decision: approve}'), humanFlow));
    expect(error.path).toBe('expect.checks[0].approval.tool');
    expect(error.expected).toContain('an approval check names "review", a human_input component, not a tool');
    expect(error.expected).toContain('state: {key: "context:review.decision"}');
    expect(
      load(`${head}approvals: {tools: {review: approve}}\nexpect: {checks: [{state: {key: "context:review.decision", equals: approve}}]}\n`, humanFlow),
    ).toHaveLength(1);
  });

  it('checks each approvals.tools answer beside a bad approvals.default, in one pass', () => {
    const error = configErrorOf(() => load(`${head}approvals: {default: maybe, tools: {close_issue: maybe, clos_issue: deny, search: ""}}\n`));
    expect(error).toBeInstanceOf(ConfigErrors);
    expect((error as ConfigErrors).errors.map((one) => `${one.path}: ${one.expected}`)).toEqual([
      'approvals.default: expected one of "approve" | "deny", got string "maybe"',
      `approvals.tools.close_issue: a tool's approval gate takes "approve", "deny", "reject"; got "maybe"`,
      expect.stringMatching(/^approvals\.tools\.clos_issue: "clos_issue" names no tool of the agent; .*did you mean "close_issue"\?$/),
      // A format problem of one answer is said once, by the format.
      'approvals.tools.search: expected a string of at least 1 character(s)',
    ]);
  });

  it('refuses a terminal_tool only a chain or plan calls (the verdict never counts it), naming the tool to use', () => {
    const terminal = (tool: string, agent = AGENT) => load(`${head}expect: {terminal_tool: "${tool}"}\n`, agent);
    const error = configErrorOf(() => terminal('write_file'));
    expect(error.path).toBe('expect.terminal_tool');
    expect(error.line).toBe(4);
    expect(error.expected).toBe(
      `expect.terminal_tool names "write_file", which is called only inside a chain or plan; the verdict counts only the model's and flow steps' calls, so it could never pass; name the chain or plan tool the model calls (tidy)`,
    );
    expect(configErrorOf(() => terminal('/^write_/')).expected).toContain('expect.terminal_tool matches only tools called inside a chain or plan: "/^write_/"');
    // Through a plan the model calls, which calls the chain: the outer tool is named.
    const nestedTwice = `${AGENT}    - {name: outer, plan: {steps: [{tools: [{name: tidy}]}]}}\n`;
    expect(configErrorOf(() => terminal('write_file', nestedTwice)).expected).toContain('name the chain or plan tool the model calls (tidy, outer)');
    // A flow step's tool counts, and so does a chain tool the model calls.
    expect(terminal('echo', FLOW_AGENT)).toHaveLength(1);
    expect(terminal('tidy')).toHaveLength(1);
    // Only a flow plan component calls it: the component is named, its run being a call named after it.
    const planFlow = `id: p
agent: {name: P}
flow:
  entry_point: p
  components: [{name: p, type: plan, plan: {steps: [{tools: [{name: echo, arguments: {text: hi}}]}]}}]
  routers: [{from: p, to: end}]
`;
    expect(configErrorOf(() => terminal('echo', planFlow)).expected).toContain(
      "; the verdict counts only the model's and flow steps' calls, so it could never pass; name the plan component that calls it (p), whose run is a call named after it",
    );
    expect(terminal('p', planFlow)).toHaveLength(1);
    expect(load(`${head}expect: {checks: [{tool_returned: {tool: p}}, {no_tool_errors: {}}]}\n`, planFlow)).toHaveLength(1);
    // Inside a plan component called by nothing else: tool_called with nested: true checks it.
    const deeper = `id: p
agent:
  name: P
  tools: [{name: tidy, description: Tidy., chain: {steps: [{id: w, tool: write_file, inputs: {path: a, content: b}}]}}]
flow:
  entry_point: s
  components: [{name: s, type: deterministic_step, tool_name: echo, inputs: [{literal: x, as: text}]}]
  routers: [{from: s, to: end}]
`;
    expect(configErrorOf(() => terminal('write_file', deeper)).expected).toContain('; check it with tool_called {tool: write_file, nested: true}');
    // An agent tool no component offers and nothing calls: said as such, not as a chain's tool.
    expect(configErrorOf(() => terminal('search', FLOW_AGENT)).expected).toBe(
      `expect.terminal_tool names "search", which no agent component's toolset offers and no deterministic step calls, so it is never called and the verdict could never pass; add it to a component's toolset, or name a tool the flow offers`,
    );
  });

  it('a /regex/ must match at least one tool', () => {
    expect(configErrorOf(() => load(checks('tool_called: {tool: "/^delete_/"}'))).expected).toContain('matches no tool of the agent: "/^delete_/"');
    // Written on the prefixed MCP names the list shows: the message says what a /regex/ sees.
    const closed = 'id: m\nagent:\n  name: M\n  mcps: [{name: ac, command: [node, s.js], tools: [validate, test_run]}]\n';
    expect(configErrorOf(() => load(checks('tool_called: {tool: "/^mcp__ac__validate$/"}'), closed)).expected).toContain(
      'expected one of: mcp__ac__validate, mcp__ac__test_run; a /regex/ sees the names without their mcp__<server>__ prefix: validate, test_run',
    );
    expect(load(checks('tool_called: {tool: "/_issue$/"}'))).toHaveLength(1);
  });

  it('accepts tools a chain calls, load_skill and prefixed names', () => {
    expect(
      load(
        checks('tool_called: {tool: write_file, nested: true}', 'tool_not_called: {tool: load_skill}', 'tool_called: {tool: "execute_tool search"}'),
        SKILLED_AGENT,
        ON_DEMAND,
      ),
    ).toHaveLength(1);
  });

  it('a build with an MCP server without a tools list accepts any name (known only at run time)', () => {
    expect(load(checks('tool_called: {tool: create_pr}', 'tool_called: {tool: mcp__gh__create_pr, args: {anything: 1}}'), MCP_AGENT)).toHaveLength(1);
  });

  it('a name is valid when a variant of the build has the tool', () => {
    const variants = { v: { set: { agent: { tools: [{ name: 'refund', returns: 1 }] } } } };
    expect(load(checks('tool_called: {tool: refund}'), AGENT, { variants })).toHaveLength(1);
    expect(configErrorOf(() => load(checks('tool_called: {tool: refund}'))).path).toBe('expect.checks[0].tool_called.tool');
  });
});

describe('a request body matcher', () => {
  it('refuses an object or a list as body (the body text), pointing at json', () => {
    const agent = `id: h\nagent:\n  name: H\n  tools:\n    - {name: post_it, description: P., parameters: {type: object}, http: {method: POST, url: "https://x.test/p", body: {a: 1}}}\n`;
    const dir = tempDir({
      'agent.yaml': agent,
      'a.scenario.yaml':
        'name: a\nagent: agent.yaml\ninputs: {messages: [{role: user, content: go}]}\nmodel: {script: [{text: ok}]}\nexpect: {checks: [{tool_called: {tool: post_it, request: {body: {a: 1}}}}]}\n',
    });
    const error = configErrorOf(() => loadSuite({ paths: [dir], config: emptySuiteConfig(dir) }, dir));
    expect(error.message).toMatch(
      /at expect\.checks\[0\]\.tool_called\.request\.body: body is compared with the body text, so an object could never match it; use json:/,
    );
  });
});

describe('a request matcher names an http tool', () => {
  it('is refused on a tool that sends no request (returns, builtin), accepted on an MCP tool whose kind is unknown', () => {
    const error = configErrorOf(() => load(checks('tool_called: {tool: close_issue, request: {method: POST}}')));
    expect(error.path).toBe('expect.checks[0].tool_called.request');
    expect(error.expected).toBe('"request" matches only the calls of http tools, and close_issue sends no HTTP request, so it could never match');
    expect(configErrorOf(() => load(checks('tool_not_called: {tool: write_file, nested: true, request: {method: POST}}'))).path).toBe(
      'expect.checks[0].tool_not_called.request',
    );
    expect(load(checks('tool_called: {tool: mcp__gh__create_pr, request: {method: POST}}'), MCP_AGENT)).toHaveLength(1);
  });
});

describe('argument names in checks are parameters of the tool', () => {
  it('an unknown argument of a tool with declared properties is an error at the key', () => {
    const error = configErrorOf(() => load(checks('tool_not_called: {tool: close_issue, args: {numbr: 42}}')));
    expect(error.path).toBe('expect.checks[0].tool_not_called.args.numbr');
    expect(error.expected).toBe('argument "numbr" is not a parameter of close_issue; expected one of: number, reason; did you mean "number"?');
  });

  it('a name listed in required but not in properties is a parameter, as JSON Schema allows', () => {
    const agent = `${AGENT}    - {name: t, parameters: {type: object, properties: {x: {type: string}}, required: [y]}, returns: 1}\n`;
    expect(load(checks('tool_called: {tool: t, args: {y: v}}'), agent)).toHaveLength(1);
    expect(configErrorOf(() => load(checks('tool_called: {tool: t, args: {yy: v}}'), agent)).expected).toBe(
      'argument "yy" is not a parameter of t; expected one of: x, y; did you mean "y"?',
    );
  });

  it('tool_sequence calls are checked; additionalProperties: true and matcher keys are left alone', () => {
    expect(configErrorOf(() => load(checks('tool_sequence: {calls: [{tool: close_issue, args: {reson: x}}]}'))).path).toBe(
      'expect.checks[0].tool_sequence.calls[0].args.reson',
    );
    expect(load(checks('tool_called: {tool: label_issue, args: {extra: 1}}', 'tool_called: {tool: close_issue, args: {number: 1}}'))).toHaveLength(1);
  });

  it('load_skill is held to its own parameters (name), in tool_not_called and tool_sequence alike', () => {
    const error = configErrorOf(() => load(checks('tool_not_called: {tool: load_skill, args: {nam: beta}}'), SKILLED_AGENT, ON_DEMAND));
    expect(error.path).toBe('expect.checks[0].tool_not_called.args.nam');
    expect(error.expected).toBe('argument "nam" is not a parameter of load_skill; expected one of: name; did you mean "name"?');
    expect(configErrorOf(() => load(checks('tool_sequence: {calls: [{tool: load_skill, args: {skill: beta}}]}'), SKILLED_AGENT, ON_DEMAND)).path).toBe(
      'expect.checks[0].tool_sequence.calls[0].args.skill',
    );
    expect(load(checks('tool_called: {tool: load_skill, args: {name: beta}}'), SKILLED_AGENT, ON_DEMAND)).toHaveLength(1);
  });

  it('a built-in called by a chain brings its own parameters', () => {
    expect(configErrorOf(() => load(checks('tool_called: {tool: write_file, nested: true, args: {pth: a.txt}}'))).expected).toContain('did you mean "path"?');
  });
});

describe('script tool calls name tools the model is offered', () => {
  const script = (name: string, extra = '') => `${head}model:\n${extra}  script:\n    - tool_calls: [{name: ${name}, args: {numbr: 1}}]\n    - text: done\n`;

  it('an unknown tool in a script is an error with a suggestion and the opt-in named', () => {
    const error = configErrorOf(() => load(script('lable_issue')));
    expect(error.path).toBe('model.script[0].tool_calls[0].name');
    expect(error.expected).toContain('did you mean "label_issue"?');
    expect(error.expected).toContain('model.allow_unknown_tools: true');
    // A run offered load_skill (on_demand, with a skill) lists it; one that is not never suggests it.
    expect(configErrorOf(() => load(script('lable_issue'), SKILLED_AGENT, ON_DEMAND)).expected).toContain(
      'expected one of: close_issue, label_issue, search, tidy, load_skill;',
    );
    expect(error.expected).toContain('expected one of: close_issue, label_issue, search, tidy;');
    expect(configErrorOf(() => load(`${head}expect: {terminal_tool: load_skil}\n`, SKILLED_AGENT, ON_DEMAND)).expected).toContain('did you mean "load_skill"?');
    expect(configErrorOf(() => load(`${head}expect: {terminal_tool: load_skil}\n`)).expected).not.toContain('load_skill');
  });

  it('a built-in only a chain calls is not offered to the model', () => {
    expect(configErrorOf(() => load(script('write_file'))).path).toBe('model.script[0].tool_calls[0].name');
  });

  it('model.allow_unknown_tools: true lets a script call an unknown tool; bad arguments stay allowed', () => {
    const [scenario] = load(script('lable_issue', '  allow_unknown_tools: true\n'));
    expect(scenario.script?.[0].tool_calls?.[0].name).toBe('lable_issue');
    expect(load(script('close_issue'))).toHaveLength(1);
  });
});

describe('"expected one of" offers only names the same place accepts', () => {
  const flow = `id: f
agent: {name: F}
flow:
  entry_point: p
  components:
    - {name: p, type: plan, plan: {steps: [{tools: [{name: find_files, arguments: {pattern: x}}]}]}}
    - {name: review, type: human_input}
  routers: [{from: p, to: review}, {from: review, to: end}]
`;
  const expected = (scenario: string) => configErrorOf(() => load(scenario, flow)).expected;

  it('terminal_tool: no human_input component and no tool only a plan calls, as list or suggestion', () => {
    for (const name of ['reviw', 'find_file']) {
      expect(expected(`${head}expect: {terminal_tool: ${name}}\n`)).toBe(`expect.terminal_tool names no tool of the agent: "${name}"; expected one of: p`);
    }
  });

  it('tool_called offers a tool a plan calls (it takes it), never a human_input component', () => {
    expect(expected(checks('tool_called: {tool: reviw}'))).toBe('a tool_called check names no tool of the agent: "reviw"; expected one of: p, find_files');
    expect(expected(checks('tool_called: {tool: find_file}'))).toBe(
      'a tool_called check names no tool of the agent: "find_file"; expected one of: p, find_files; did you mean "find_files"?',
    );
  });

  it('tool_not_called without nested: true offers no tool only a plan calls; with it, it does', () => {
    expect(expected(checks('tool_not_called: {tool: find_file}'))).toBe('a tool_not_called check names no tool of the agent: "find_file"; expected one of: p');
    expect(expected(checks('tool_not_called: {tool: find_file, nested: true}'))).toContain('expected one of: p, find_files; did you mean "find_files"?');
  });
});

describe('state checks need a flow', () => {
  it('a state check on a build without a flow is an error at load', () => {
    const error = configErrorOf(() => load(checks('state: {key: status, equals: done}')));
    expect(error.path).toBe('expect.checks[0].state.key');
    expect(error.expected).toContain('has no flow');
  });

  it('is fine on a flow build', () => {
    expect(load(checks('state: {key: status, equals: done}'), FLOW_AGENT)).toHaveLength(1);
  });

  it('refuses a context or conversation key the flow state can never hold, so exists: false cannot pass vacuously', () => {
    const misspelt = configErrorOf(() => load(checks('state: {key: "context:stroe.tool_result", exists: false}'), FLOW_AGENT));
    expect(misspelt.path).toBe('expect.checks[0].state.key');
    expect(misspelt.expected).toBe(
      `state key "context:stroe.tool_result" names "stroe", which is not a component of the flow, goal or a key of the scenario's inputs.context, so the flow state never holds it; expected one of: store, goal; did you mean "store"?`,
    );
    // store is a deterministic step: it has no conversation.
    expect(configErrorOf(() => load(checks('state: {key: "conversation_history:store", exists: false}'), FLOW_AGENT)).expected).toContain(
      'names "store", which is not an agent component of the flow',
    );
    // A component, goal, or a key the scenario's inputs.context gives are fine.
    const withContext = `${head.replace('inputs: {messages: [{role: user, content: go}]}', 'inputs: {messages: [{role: user, content: go}], context: {order_id: "1"}}')}expect:\n  checks:\n`;
    for (const key of ['context:store.tool_result', 'context:goal', 'context:order_id']) {
      expect(load(`${withContext}    - state: {key: "${key}", exists: true}\n`, FLOW_AGENT)).toHaveLength(1);
    }
  });

  it('refuses a key under a component that the component never writes, so a misspelt output key cannot pass vacuously', () => {
    const typo = configErrorOf(() => load(checks('state: {key: "context:store.eror", exists: false}'), FLOW_AGENT));
    expect(typo.path).toBe('expect.checks[0].state.key');
    expect(typo.line).toBe(6);
    expect(typo.expected).toBe(
      'state key "context:store.eror" reads "eror" of "store", a deterministic_step component, which writes only tool_result and error, so the flow state never holds it; expected one of: tool_result, error; did you mean "error"?',
    );
    // Each component type's own keys (docs/workflows.md, Components), deeper keys under them too.
    const mixed = `id: f
agent: {name: F}
flow:
  entry_point: ask
  components:
    - {name: ask, type: agent}
    - {name: review, type: human_input}
    - {name: p, type: plan, plan: {steps: [{tools: [{name: echo, arguments: {text: x}}]}]}}
    - {name: done, type: end}
  routers: [{from: ask, to: review}, {from: review, to: p}, {from: p, to: done}]
`;
    for (const key of ['context:ask.final_answer', 'context:review.decision', 'context:review.response', 'context:p.tool_result.log.0', 'context:p.error']) {
      expect(load(checks(`state: {key: "${key}", exists: true}`), mixed)).toHaveLength(1);
    }
    expect(configErrorOf(() => load(checks('state: {key: "context:review.decison", exists: false}'), mixed)).expected).toContain(
      'a human_input component, which writes only decision and response, so the flow state never holds it; expected one of: decision, response; did you mean "decision"?',
    );
    expect(configErrorOf(() => load(checks('state: {key: "context:ask.tool_result", exists: false}'), mixed)).expected).toContain(
      'reads "tool_result" of "ask", an agent component, which writes only final_answer,',
    );
    expect(configErrorOf(() => load(checks('state: {key: "context:done.x", exists: false}'), mixed)).expected).toContain(
      'reads "x" of "done", an end component, which writes nothing, so the flow state never holds it; expected one of: (none)',
    );
    // The context starts as the scenario's inputs.context: a key it gives under the name may exist.
    const given = (context: string, key: string) =>
      load(
        `${head.replace('inputs: {messages: [{role: user, content: go}]}', `inputs: {messages: [{role: user, content: go}], context: ${context}}`)}expect:
  checks:
    - state: {key: "${key}", exists: true}
`,
        FLOW_AGENT,
      );
    expect(given('{store: {seed: 1}}', 'context:store.seed')).toHaveLength(1);
    expect(configErrorOf(() => given('{store: {seed: 1}}', 'context:store.sed')).expected).toContain(
      `which writes only tool_result and error, and the scenario's inputs.context gives no "sed" under it, so the flow state never holds it; expected one of: tool_result, error, seed; did you mean "seed"?`,
    );
  });

  it('refuses a key inside status (a string, so it never exists), and suggests the channel a key misspells', () => {
    const inside = configErrorOf(() => load(checks('state: {key: "status:x", exists: false}'), FLOW_AGENT));
    expect(inside.path).toBe('expect.checks[0].state.key');
    expect(inside.expected).toBe(
      'state key "status:x" reads inside status, which is a string ("completed", "input_required", ...), so it never exists; use key: status with equals or contains',
    );
    const channel = configErrorOf(() => load(checks('state: {key: stauts, equals: completed}'), FLOW_AGENT));
    expect(channel.path).toBe('expect.checks[0].state.key');
    expect(channel.expected).toMatch(/^expected a state key such as .*, got "stauts"; did you mean "status"\?$/);
    expect(configErrorOf(() => load(checks('state: {key: "contxt:goal", exists: true}'), FLOW_AGENT)).expected).toMatch(/; did you mean "context:goal"\?$/);
  });

  it("accepts inputs.context on a build without a flow (the contract's own scenario example gives one)", () => {
    const scenario = head.replace(
      'inputs: {messages: [{role: user, content: go}]}',
      'inputs: {messages: [{role: user, content: go}], context: {order_id: "1"}}',
    );
    expect(load(scenario)).toHaveLength(1);
    expect(load(scenario, FLOW_AGENT)).toHaveLength(1);
  });
});

describe('every problem of a file in one pass', () => {
  it('problems in several scenarios and several checks are all reported, each located', () => {
    const yaml = `scenarios:
  - ${head.trim().split('\n').join('\n    ')}
    expect: {checks: [{tool_called: {tool: serch}}, {tool_called: {tool: search, min: -1}}]}
  - name: t
    agent: agent.yaml
    inputs: {messages: [{role: user, content: go}]}
    expect: {terminal_tool: clse_issue, checks: [{bogus_check: {}}]}
`;
    const error = configErrorOf(() => load(yaml));
    expect(error).toBeInstanceOf(ConfigErrors);
    const errors = (error as ConfigErrors).errors;
    expect(errors.map((e) => e.path).sort()).toEqual([
      'scenarios[0].expect.checks[0].tool_called.tool',
      'scenarios[0].expect.checks[1].tool_called.min',
      'scenarios[1].expect.checks[0].bogus_check',
      'scenarios[1].expect.terminal_tool',
    ]);
    expect(errors.every((e) => e.line !== undefined)).toBe(true);
    expect(error.message.split('\n')).toHaveLength(4);
  });
});

describe('load_skill is named only where a run is offered it', () => {
  const WHY = '"load_skill" is offered only when skills are delivered on demand (skills.delivery: on_demand) and the run has a skill the model may load';
  const uses = `${head}model: {script: [{tool_calls: [{name: load_skill, args: {name: beta}}]}, {text: done}]}
expect:
  terminal_tool: load_skill
  checks:
    - tool_called: {tool: load_skill}
`;

  it('refuses a script call, terminal_tool and check naming it under inline delivery, each with why', () => {
    const error = configErrorOf(() => load(uses, SKILLED_AGENT));
    expect(error).toBeInstanceOf(ConfigErrors);
    const errors = (error as ConfigErrors).errors;
    expect(errors.map((e) => e.path).sort()).toEqual(['expect.checks[0].tool_called.tool', 'expect.terminal_tool', 'model.script[0].tool_calls[0].name']);
    for (const e of errors) expect(e.expected).toBe(`${WHY}; this scenario's run delivers them inline (the default)`);
  });

  it('refuses it under on_demand delivery when the run has no skill', () => {
    const error = configErrorOf(() => load(uses, AGENT, ON_DEMAND));
    expect((error as ConfigErrors).errors.map((e) => e.expected)).toEqual(
      Array(3).fill(`${WHY}; this scenario's run has none (no agent.skills, skills.forced or skills.overlay)`),
    );
  });

  it("refuses it under on_demand delivery when the model may load none of the run's skills (disable_model_invocation), as the engine offers no load_skill", () => {
    const disabled = `${AGENT}  skills: [{name: release, description: R., disable_model_invocation: true, body: b}]\n`;
    const error = configErrorOf(() => load(uses, disabled, ON_DEMAND));
    expect((error as ConfigErrors).errors.map((e) => e.expected)).toEqual(
      Array(3).fill(`${WHY}; every skill this scenario's run delivers has disable_model_invocation: true (release), so the model may load none`),
    );
    // A forced skill the model may not load wins over the build's skill of that name: still none to load.
    const forced = tempDir({ 'beta/SKILL.md': '---\nname: beta\ndescription: B.\ndisable_model_invocation: true\n---\nB.\n' });
    const shadowed = configErrorOf(() => load(uses, SKILLED_AGENT, { skills: { delivery: 'on_demand', forced: [join(forced, 'beta')] } }));
    expect(shadowed.message).toContain('has disable_model_invocation: true (beta)');
    // One skill the model may load is enough.
    const both = `${AGENT}  skills: [{name: release, description: R., disable_model_invocation: true}, {name: beta, description: B.}]\n`;
    expect(load(uses, both, ON_DEMAND)).toHaveLength(1);
  });

  it("accepts it when the suite, the scenario's own skills or the CLI's overlay make the run offer it", () => {
    expect(load(uses, SKILLED_AGENT, ON_DEMAND)).toHaveLength(1);
    const skill = '---\nname: beta\ndescription: Beta skill.\n---\nBody.\n';
    const overlay = join(tempDir({ 'beta/SKILL.md': skill }), 'beta');
    expect(load(uses, AGENT, { skills: { delivery: 'on_demand', overlay: [overlay] } })).toHaveLength(1);
    // The scenario's own skills: delivery and a folder of its own.
    const own = uses.replace('inputs:', 'skills: {overlay: [skills/beta], delivery: on_demand}\ninputs:');
    let dir = tempDir({ 'agent.yaml': AGENT, 'skills/beta/SKILL.md': skill, 'a.scenario.yaml': own });
    expect(loadSuite({ paths: [dir], config: emptySuiteConfig(dir) }, dir).scenarios).toHaveLength(1);
    // The suite's on_demand delivery with the CLI's --overlay as the only skill.
    dir = tempDir({ 'agent.yaml': AGENT, 'skills/beta/SKILL.md': skill, 'a.scenario.yaml': uses });
    const config = { ...emptySuiteConfig(dir), skills: { forced: [], overlay: [], delivery: 'on_demand' as const } };
    expect(loadSuite({ paths: [dir], overlay: ['skills/beta'], config }, dir).scenarios).toHaveLength(1);
    expect(() => loadSuite({ paths: [dir], config }, dir)).toThrow("this scenario's run has none");
  });

  it("leaves an external agent's names to its own tools: it may have a tool named load_skill", () => {
    const external = 'id: ext\nexternal: {command: [node, a.mjs], tools: [{name: load_skill}, {name: finish}]}\n';
    expect(
      load(
        uses.replace('agent: agent.yaml', 'agent: ext.yaml').replace('tool_called: {tool: load_skill}', 'tool_called: {tool: finish}'),
        AGENT,
        {},
        { 'ext.yaml': external, 'a.mjs': '' },
      ),
    ).toHaveLength(1);
  });

  it('lets a script call it on purpose with allow_unknown_tools, as any tool the model is not offered', () => {
    const script = `${head}model: {allow_unknown_tools: true, script: [{tool_calls: [{name: load_skill, args: {}}]}, {text: done}]}\n`;
    expect(load(script)).toHaveLength(1);
  });
});
