import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Report, ScenarioRow } from '../../src/runner/report/report.js';
import { shared } from '../helpers/shared-fixture.js';
import { tempDir } from '../helpers/temp-dir.js';
import { runMain } from '../helpers/run-main.js';
import { runCli } from './cli.js';

// Names that are also members of Object.prototype (`__proto__`, `constructor`, `toString`) are
// ordinary names in every file agentcheck reads: a component, a tool or a key called so is data.

const FLOW_AGENT = `id: proto-flow
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
`;

const FLOW_SCENARIO = `name: proto names
agent: flow.yaml
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
`;

const GATES_AGENT = `id: proto-gates
agent:
  name: Proto gates
  llm: {provider: scripted, model: s}
  permissions: {mode: ask}
  tools:
    - {name: constructor, description: C., parameters: {type: object}, returns: {status: ok}}
    - {name: __proto__, description: P., parameters: {type: object}, returns: {status: ok}}
    - {name: finish, description: F., parameters: {type: object}, returns: {done: true}}
flow:
  entry_point: work
  components:
    - {name: work, type: agent, toolset: [constructor, __proto__, finish]}
    - {name: toString, type: human_input, inputs: ["context:work.final_answer"]}
  routers:
    - {from: work, to: toString}
    - {from: toString, to: end}
`;

const GATES_SCENARIO = `name: gates
agent: gates.yaml
inputs: {messages: [{role: user, content: go}]}
approvals: {default: approve, tools: {finish: approve}}
model:
  script:
    - tool_calls: [{name: constructor, args: {}}, {name: __proto__, args: {}}]
    - tool_calls: [{name: finish, args: {}}]
    - text: done
expect:
  terminal_tool: finish
  checks:
    - approval: {tool: constructor, decision: approve}
    - approval: {tool: __proto__, decision: approve}
    - tool_returned: {tool: constructor, result: {status: ok}}
    - state: {key: "context:toString.decision", equals: approve}
`;

const PLAN_AGENT = `id: plan-bot
agent:
  name: Plan bot
  llm: {provider: scripted, model: s}
  tools:
    - {name: constructor, description: C., read_only: true, parameters: {type: object}, returns: {status: ok}}
    - name: reporter
      description: R.
      parameters: {type: object}
      plan:
        steps:
          - tools: [{name: constructor, arguments: {}, returns: out}]
`;

const ENV_AGENT = `id: env-bot
agent:
  name: Env bot
  llm: {provider: scripted, model: s}
  tools:
    - name: show_env
      description: S.
      read_only: true
      parameters: {type: object}
      command:
        argv: [sh, -c, 'printf "%s %s %s" "\${constructor-unset}" "\${toString-unset}" "\${ALLOWED_X-unset}"']
        allow_env: [constructor, toString, ALLOWED_X]
`;

const ENV_SCENARIO = `name: env
agent: env.yaml
inputs: {messages: [{role: user, content: go}]}
model: {script: [{tool_calls: [{name: show_env, args: {}}]}, {text: done}]}
expect:
  terminal_tool: show_env
  checks:
    - tool_returned: {tool: show_env, result: {stdout: unset unset yes}}
`;

const PBOT_AGENT = `id: p-bot
agent:
  name: P bot
  llm: {provider: openai, model: gpt-4.1-mini, parameters: {constructor: 1, toString: 2}}
`;

const STOP_AGENT =
  'id: b\nagent:\n  name: B\n  llm: {provider: scripted, model: s}\n  tools: [{name: finish, description: F., parameters: {type: object}, returns: {done: true}}]\n';

const STOP_SCENARIO =
  'name: stop\nagent: stop.yaml\ninputs: {messages: [{role: user, content: go}]}\nmodel: {script: [{tool_calls: [{name: finish, args: {}}]}, {text: done}]}\nexpect: {terminal_tool: finish, checks: [{output: {contains: nope}}]}\n';

const RESULT_AGENT = `id: proto-result
agent:
  name: Proto result
  llm: {provider: scripted, model: s}
  tools:
    - name: fetch_user
      description: F.
      read_only: true
      parameters: {type: object}
      http: {method: GET, url: "https://api.test/user", headers: {Authorization: "Bearer tok-0123456789abcdef"}}
flow:
  entry_point: get
  components:
    - {name: get, type: deterministic_step, tool_name: fetch_user}
  routers:
    - {from: get, to: end}
`;

const RESULT_SCENARIO = `name: result
agent: result.yaml
inputs: {messages: [{role: user, content: go}]}
mocks: {http: [{method: GET, url: "https://api.test/user", json: {__proto__: {admin: true}, name: ann}}]}
expect:
  checks:
    - tool_returned: {tool: fetch_user, result: {__proto__: {admin: true}, name: ann}, result_mode: exact}
    - state: {key: "context:get.tool_result.__proto__.admin", equals: true}
`;

const ARGS_AGENT = `id: proto-args
agent:
  name: Proto args
  llm: {provider: scripted, model: s}
  tools:
    - name: send
      description: Send.
      parameters: {type: object, properties: {role: {type: string}}}
      http:
        method: POST
        url: https://api.test/items
        headers: {__proto__: "{{ args.role }}"}
        body: {__proto__: {role: "{{ args.role }}"}, ok: 1}
    - {name: lookup, description: L., read_only: true, parameters: {type: object}, returns: {status: ok}}
    - name: pipe
      description: P.
      read_only: true
      parameters: {type: object}
      chain:
        steps:
          - {tool: lookup, on_success: {map_outputs: {$: __proto__}}}
          - {tool: echo, inputs: {text: "{{ __proto__.status }}"}}
    - name: defaults
      description: D.
      read_only: true
      parameters: {type: object, properties: {__proto__: {type: object, default: {a: 1}}}}
      http: {method: POST, url: https://api.test/defaults, body: "{{ args }}"}
flow:
  entry_point: work
  components:
    - {name: work, type: agent, toolset: [send, pipe, defaults]}
    - {name: step, type: deterministic_step, tool_name: lookup, inputs: [{from: "context:work.final_answer", as: __proto__}]}
  routers:
    - {from: work, to: step}
    - {from: step, to: end}
`;

const ARGS_SCENARIO = `name: args
agent: args.yaml
inputs: {messages: [{role: user, content: go}]}
mocks:
  http:
    - {method: POST, url: "https://api.test/items", json: {saved: true}}
    - {method: POST, url: "https://api.test/defaults", json: {saved: true}}
model:
  script:
    - tool_calls: [{name: send, args: {role: admin}}, {name: pipe, args: {}}, {name: defaults, args: {}}]
    - text: done
expect:
  checks:
    - tool_called: {tool: send, request: {json: {__proto__: {role: admin}, ok: 1}, headers: {__proto__: admin}}}
    - tool_returned: {tool: pipe, result: {success: true, final_state: {__proto__: {status: ok}}}}
    - tool_called: {tool: defaults, request: {json: {__proto__: {a: 1}}}}
    - tool_called: {tool: lookup, args: {__proto__: done}, args_mode: exact}
`;

const SECRET_AGENT =
  'id: r\nagent:\n  name: R\n  llm: {provider: scripted, model: s}\n  tools: [{name: finish, description: F., parameters: {type: object}, returns: {done: true}}]\n';

const SECRET_SCENARIO = `name: r
agent: secret.yaml
inputs: {messages: [{role: user, content: go}]}
model: {script: [{tool_calls: [{name: finish, args: {__proto__: {x: 1}, key: "pass secretvalue12345 on"}}]}, {text: done}]}
expect: {terminal_tool: finish}
`;

const AJV_AGENT = `id: ajv-bot
agent:
  name: Ajv bot
  llm: {provider: scripted, model: s}
  tools:
    - {name: opt, description: O., read_only: true, parameters: {type: object, properties: {constructor: {type: string}}}, returns: {ok: true}}
    - {name: req, description: R., read_only: true, parameters: {type: object, properties: {toString: {type: string}}, required: [toString]}, returns: {ok: true}}
`;

// Every case that runs is a scenario of one suite, each with a build of its own, run once (its
// one failure, `stop`, is the report the merge case rewrites); each test reads its own row.
const suite = shared(async (dir) => {
  const cwd = dir({
    'flow.yaml': FLOW_AGENT,
    'flow.scenario.yaml': FLOW_SCENARIO,
    'gates.yaml': GATES_AGENT,
    'gates.scenario.yaml': GATES_SCENARIO,
    'plan.yaml': PLAN_AGENT,
    'plan.scenario.yaml': runOf('plan', 'plan.yaml', '[{tool_calls: [{name: reporter, args: {}}]}, {text: done}]'),
    'env.yaml': ENV_AGENT,
    'env.scenario.yaml': ENV_SCENARIO,
    'stop.yaml': STOP_AGENT,
    'stop.scenario.yaml': STOP_SCENARIO,
    'result.yaml': RESULT_AGENT,
    'result.scenario.yaml': RESULT_SCENARIO,
    'args.yaml': ARGS_AGENT,
    'args.scenario.yaml': ARGS_SCENARIO,
    'secret.yaml': SECRET_AGENT,
    'r.scenario.yaml': SECRET_SCENARIO,
    'ajv.yaml': AJV_AGENT,
    'ajv.scenario.yaml': runOf('ajv', 'ajv.yaml', '[{tool_calls: [{name: opt, args: {}}, {name: req, args: {}}]}, {text: done}]'),
  });
  // ALLOWED_X is the one variable env.yaml's command may see; SHOP_TOKEN the secret r.scenario.yaml's call carries.
  const result = await runCli(['run', '.', '--out', 'out', '--reporter', 'table,json'], cwd, { ALLOWED_X: 'yes', SHOP_TOKEN: 'secretvalue12345' });
  const reportText = readFileSync(join(cwd, 'out', 'report.json'), 'utf8');
  const rows = (JSON.parse(reportText) as Report).scenarios;
  const row = (name: string): ScenarioRow => {
    const found = rows.find((scenario) => scenario.name === name);
    if (!found) throw new Error(`no row ${name} in ${result.all}`);
    return found;
  };
  return { cwd, result, reportText, row };
});

/** A scenario `name` of build `agent` whose model says `script` and that expects nothing. */
function runOf(name: string, agent: string, script: string): string {
  return `name: ${name}\nagent: ${agent}\ninputs: {messages: [{role: user, content: go}]}\nmodel: {script: ${script}}\n`;
}

/** Asserts the scenario `name` of the suite passed. */
async function passed(name: string): Promise<void> {
  const { result, row } = await suite();
  const found = row(name);
  expect(found.status, `${name}: ${JSON.stringify(found.error ?? found.checks)}\n${result.all}`).toBe('pass');
  expect(
    found.checks.every((check) => check.status === 'pass'),
    name,
  ).toBe(true);
}

it('the suite of these cases runs with its one expected failure and nothing on stderr', async () => {
  const { result } = await suite();
  // Only stop.scenario.yaml fails (its output check), as it is written to.
  expect(result.exitCode, result.all).toBe(1);
  expect(result.all).toContain('9 scenarios: 8 passed (2 with no expectation), 1 failed, 0 errored');
  expect(result.stderr).toBe('');
});

describe('flow components named like Object.prototype members (built CLI)', () => {
  it('runs a flow whose components are named toString, __proto__ and constructor, their state readable by name', async () => {
    await passed('proto names');
  });
});

describe('approvals for tools named like Object.prototype members (built CLI)', () => {
  it('answers gated tools named constructor and __proto__, and a human_input named toString, from approvals.default', async () => {
    await passed('gates');
  });
});

describe('a STEP plan calling a tool named like an Object.prototype member (built CLI)', () => {
  it('validates and runs a plan that calls a tool named constructor', async () => {
    const dir = tempDir({ 'agent.yaml': PLAN_AGENT });
    const validate = await runCli(['validate', 'agent.yaml'], dir);
    expect(validate.exitCode, validate.all).toBe(0);
    const { row } = await suite();
    const run = row('plan').test_run;
    expect(run?.stop_reason).toBe('end_turn');
    expect(run?.tools).toContainEqual(expect.objectContaining({ name: 'reporter', called: 1, errors: 0 }));
  });
});

describe('allow_env naming an Object.prototype member (built CLI)', () => {
  it('passes a command no constructor or toString variable that is not set, only the ones that are', async () => {
    await passed('env');
  });
});

describe('unknown keys named like Object.prototype members get no hint quoting a function', () => {
  it('says an llm parameter or a skill key named constructor or toString is unknown, with no JavaScript function as a hint', async () => {
    const dir = tempDir({
      'agent.yaml': PBOT_AGENT,
      'my-skill/SKILL.md': '---\nname: my-skill\ndescription: Does things.\nconstructor: 1\ntoString: 2\n---\nBody\n',
    });
    // Both files' problems in one pass. A refusal at load: the CLI's entry in-process (runMain), as
    // the built CLI refuses validate's file problems in validate-one-pass.test.ts.
    const result = await runMain(['validate', 'agent.yaml', 'my-skill'], dir);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(
      /agent\.yaml:\d+:\d+ at agent\.llm\.parameters\.constructor: unknown openai parameter "constructor"; expected one of: temperature, /,
    );
    expect(result.stderr).toMatch(
      /agent\.yaml:\d+:\d+ at agent\.llm\.parameters\.toString: unknown openai parameter "toString"; expected one of: temperature, /,
    );
    expect(result.stderr).toMatch(/SKILL\.md:4:1 at constructor: unknown key "constructor"; a skill takes name, description and disable_model_invocation$/m);
    expect(result.stderr).toMatch(/SKILL\.md:5:1 at toString: unknown key "toString"; a skill takes name, description and disable_model_invocation$/m);
    expect(result.stderr).not.toContain('[native code]');
  });
});

describe('a report whose stop reason is named like an Object.prototype member (built CLI)', () => {
  it('merges and shows it as the stop reason it is, with no JavaScript function for words', async () => {
    const { cwd, row } = await suite();
    expect(row('stop').status).toBe('fail');
    // The suite's report, its failed row's stop reason rewritten, in a folder of this test's own.
    const report = JSON.parse(readFileSync(join(cwd, 'out', 'report.json'), 'utf8')) as {
      scenarios: Array<{ name: string; test_run: { stop_reason: string } }>;
    };
    const dir = tempDir({});
    report.scenarios.find((scenario) => scenario.name === 'stop')!.test_run.stop_reason = 'toString';
    writeFileSync(join(dir, 'report.json'), JSON.stringify(report));
    const merged = await runCli(['merge', 'report.json', '--out', 'merged', '--reporter', 'table'], dir);
    expect(merged.stdout).toContain('Stopped: toString\n');
    expect(merged.all).not.toContain('[native code]');
  });
});

describe('a tool result holding a __proto__ key (built CLI)', () => {
  it('keeps the key of an http response (its request sent with a credential) for the model, the checks and the flow state', async () => {
    await passed('result');
  });
});

describe('a __proto__ key in values the engine builds for a call (built CLI)', () => {
  it('keeps it in a templated http body and header, a chain state, a flow step argument and a schema default', async () => {
    await passed('args');
  });
});

describe('secret scrubbing of an object with a __proto__ key (built CLI)', () => {
  it('keeps the key in report.json when a secret beside it is redacted', async () => {
    const { reportText, row } = await suite();
    expect(row('r').status).toBe('pass');
    expect(reportText).not.toContain('secretvalue12345');
    const transcript = row('r').transcript as Array<{ tool_calls?: Array<{ input: unknown }> }>;
    expect(JSON.stringify(transcript[1].tool_calls?.[0].input)).toBe('{"__proto__":{"x":1},"key":"pass [redacted] on"}');
  });
});

describe('tool parameters named like Object.prototype members (built CLI)', () => {
  it('accepts a call without an optional constructor argument and refuses one without a required toString, never crashing', async () => {
    const { cwd, result, row } = await suite();
    const run = row('ajv').test_run;
    expect(run?.stop_reason, result.all).toBe('end_turn');
    expect(run?.tools).toEqual([
      expect.objectContaining({ name: 'opt', called: 1, errors: 0 }),
      expect.objectContaining({ name: 'req', called: 1, errors: 1 }),
    ]);
    const messages = readFileSync(join(cwd, 'out', 'spans.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { status_message?: string }).status_message);
    expect(messages).toContainEqual(expect.stringContaining('Invalid arguments for req: (arguments): missing required key "toString"'));
  });
});
