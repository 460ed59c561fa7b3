import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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

describe('approvals for tools named like Object.prototype members (built CLI)', () => {
  it('answers gated tools named constructor and __proto__, and a human_input named toString, from approvals.default', async () => {
    const dir = tempDir({
      'agent.yaml': `id: proto-gates
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
`,
      'gates.scenario.yaml': `name: gates
agent: agent.yaml
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
`,
    });
    const result = await runCli(['run', 'gates.scenario.yaml', '--out', 'out', '--reporter', 'table'], dir);
    expect(result.all).toContain('1 scenario: 1 passed');
    expect(result.exitCode, result.all).toBe(0);
  });
});

describe('a STEP plan calling a tool named like an Object.prototype member (built CLI)', () => {
  it('validates and runs a plan that calls a tool named constructor', async () => {
    const dir = tempDir({
      'agent.yaml': `id: plan-bot
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
`,
      'script.yaml': '- tool_calls: [{name: reporter, args: {}}]\n- text: done\n',
    });
    const validate = await runCli(['validate', 'agent.yaml'], dir);
    expect(validate.exitCode, validate.all).toBe(0);
    const run = await runCli(['test-run', '--agent', 'agent.yaml', '--message', 'go', '--script', 'script.yaml', '--json'], dir);
    expect(run.stderr).toBe('');
    const result = JSON.parse(run.stdout) as { stop_reason: string; tools: Array<{ name: string; called: number; errors: number }> };
    expect(result.stop_reason).toBe('end_turn');
    expect(result.tools).toContainEqual(expect.objectContaining({ name: 'reporter', called: 1, errors: 0 }));
  });
});

describe('allow_env naming an Object.prototype member (built CLI)', () => {
  it('passes a command no constructor or toString variable that is not set, only the ones that are', async () => {
    const dir = tempDir({
      'agent.yaml': `id: env-bot
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
`,
      'env.scenario.yaml': `name: env
agent: agent.yaml
inputs: {messages: [{role: user, content: go}]}
model: {script: [{tool_calls: [{name: show_env, args: {}}]}, {text: done}]}
expect:
  terminal_tool: show_env
  checks:
    - tool_returned: {tool: show_env, result: {stdout: unset unset yes}}
`,
    });
    const result = await runCli(['run', 'env.scenario.yaml', '--out', 'out', '--reporter', 'table'], dir, { ALLOWED_X: 'yes' });
    expect(result.all).toContain('1 scenario: 1 passed');
    expect(result.exitCode, result.all).toBe(0);
  });
});

describe('unknown keys named like Object.prototype members get no hint quoting a function (built CLI)', () => {
  it('says an llm parameter or a skill key named constructor or toString is unknown, with no JavaScript function as a hint', async () => {
    const dir = tempDir({
      'agent.yaml': `id: p-bot
agent:
  name: P bot
  llm: {provider: openai, model: gpt-4.1-mini, parameters: {constructor: 1, toString: 2}}
`,
      'my-skill/SKILL.md': '---\nname: my-skill\ndescription: Does things.\nconstructor: 1\ntoString: 2\n---\nBody\n',
    });
    const build = await runCli(['validate', 'agent.yaml'], dir);
    expect(build.exitCode).toBe(2);
    expect(build.stderr).toMatch(/at agent\.llm\.parameters\.constructor: unknown openai parameter "constructor"; expected one of: temperature, /);
    expect(build.stderr).toMatch(/at agent\.llm\.parameters\.toString: unknown openai parameter "toString"; expected one of: temperature, /);
    const skill = await runCli(['validate', 'my-skill'], dir);
    expect(skill.exitCode).toBe(2);
    expect(skill.stderr).toMatch(/SKILL\.md:4:1 at constructor: unknown key "constructor"; a skill takes name, description and disable_model_invocation$/m);
    expect(skill.stderr).toMatch(/SKILL\.md:5:1 at toString: unknown key "toString"; a skill takes name, description and disable_model_invocation$/m);
    expect(`${build.stderr}${skill.stderr}`).not.toContain('[native code]');
  });
});

describe('a report whose stop reason is named like an Object.prototype member (built CLI)', () => {
  it('merges and shows it as the stop reason it is, with no JavaScript function for words', async () => {
    const dir = tempDir({
      'agent.yaml':
        'id: b\nagent:\n  name: B\n  llm: {provider: scripted, model: s}\n  tools: [{name: finish, description: F., parameters: {type: object}, returns: {done: true}}]\n',
      'stop.scenario.yaml':
        'name: stop\nagent: agent.yaml\ninputs: {messages: [{role: user, content: go}]}\nmodel: {script: [{tool_calls: [{name: finish, args: {}}]}, {text: done}]}\nexpect: {terminal_tool: finish, checks: [{output: {contains: nope}}]}\n',
    });
    expect((await runCli(['run', 'stop.scenario.yaml', '--out', 'out', '--reporter', 'json'], dir)).exitCode).toBe(1);
    const file = join(dir, 'out', 'report.json');
    const report = JSON.parse(readFileSync(file, 'utf8')) as { scenarios: Array<{ test_run: { stop_reason: string } }> };
    report.scenarios[0].test_run.stop_reason = 'toString';
    writeFileSync(file, JSON.stringify(report));
    const merged = await runCli(['merge', 'out/report.json', '--out', 'merged', '--reporter', 'table'], dir);
    expect(merged.stdout).toContain('Stopped: toString\n');
    expect(merged.all).not.toContain('[native code]');
  });
});

describe('a tool result holding a __proto__ key (built CLI)', () => {
  it('keeps the key of an http response (its request sent with a credential) for the model, the checks and the flow state', async () => {
    const dir = tempDir({
      'agent.yaml': `id: proto-result
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
`,
      'result.scenario.yaml': `name: result
agent: agent.yaml
inputs: {messages: [{role: user, content: go}]}
mocks: {http: [{method: GET, url: "https://api.test/user", json: {__proto__: {admin: true}, name: ann}}]}
expect:
  checks:
    - tool_returned: {tool: fetch_user, result: {__proto__: {admin: true}, name: ann}, result_mode: exact}
    - state: {key: "context:get.tool_result.__proto__.admin", equals: true}
`,
    });
    const result = await runCli(['run', 'result.scenario.yaml', '--out', 'out', '--reporter', 'table'], dir);
    expect(result.all).toContain('1 scenario: 1 passed');
    expect(result.exitCode, result.all).toBe(0);
  });
});

describe('a __proto__ key in values the engine builds for a call (built CLI)', () => {
  it('keeps it in a templated http body and header, a chain state, a flow step argument and a schema default', async () => {
    const dir = tempDir({
      'agent.yaml': `id: proto-args
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
`,
      'args.scenario.yaml': `name: args
agent: agent.yaml
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
`,
    });
    const result = await runCli(['run', 'args.scenario.yaml', '--out', 'out', '--reporter', 'table'], dir);
    expect(result.all).toContain('1 scenario: 1 passed');
    expect(result.exitCode, result.all).toBe(0);
  });
});

describe('secret scrubbing of an object with a __proto__ key (built CLI)', () => {
  it('keeps the key in report.json when a secret beside it is redacted', async () => {
    const dir = tempDir({
      'agent.yaml':
        'id: r\nagent:\n  name: R\n  llm: {provider: scripted, model: s}\n  tools: [{name: finish, description: F., parameters: {type: object}, returns: {done: true}}]\n',
      'r.scenario.yaml': `name: r
agent: agent.yaml
inputs: {messages: [{role: user, content: go}]}
model: {script: [{tool_calls: [{name: finish, args: {__proto__: {x: 1}, key: "pass secretvalue12345 on"}}]}, {text: done}]}
expect: {terminal_tool: finish}
`,
    });
    const result = await runCli(['run', 'r.scenario.yaml', '--out', 'out', '--reporter', 'json'], dir, { SHOP_TOKEN: 'secretvalue12345' });
    expect(result.exitCode, result.all).toBe(0);
    const text = readFileSync(join(dir, 'out', 'report.json'), 'utf8');
    expect(text).not.toContain('secretvalue12345');
    const report = JSON.parse(text) as { scenarios: Array<{ transcript: Array<{ tool_calls?: Array<{ input: unknown }> }> }> };
    expect(JSON.stringify(report.scenarios[0].transcript[1].tool_calls?.[0].input)).toBe('{"__proto__":{"x":1},"key":"pass [redacted] on"}');
  });
});

describe('tool parameters named like Object.prototype members (built CLI)', () => {
  it('accepts a call without an optional constructor argument and refuses one without a required toString, never crashing', async () => {
    const dir = tempDir({
      'agent.yaml': `id: ajv-bot
agent:
  name: Ajv bot
  llm: {provider: scripted, model: s}
  tools:
    - {name: opt, description: O., read_only: true, parameters: {type: object, properties: {constructor: {type: string}}}, returns: {ok: true}}
    - {name: req, description: R., read_only: true, parameters: {type: object, properties: {toString: {type: string}}, required: [toString]}, returns: {ok: true}}
`,
      'script.yaml': '- tool_calls: [{name: opt, args: {}}, {name: req, args: {}}]\n- text: done\n',
    });
    const run = await runCli(['test-run', '--agent', 'agent.yaml', '--message', 'go', '--script', 'script.yaml', '--spans', 'spans.jsonl', '--json'], dir);
    const result = JSON.parse(run.stdout) as { stop_reason: string; tools: Array<{ name: string; called: number; errors: number }> };
    expect(result.stop_reason, run.all).toBe('end_turn');
    expect(result.tools).toEqual([
      expect.objectContaining({ name: 'opt', called: 1, errors: 0 }),
      expect.objectContaining({ name: 'req', called: 1, errors: 1 }),
    ]);
    const messages = readFileSync(join(dir, 'spans.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { status_message?: string }).status_message);
    expect(messages).toContainEqual(expect.stringContaining('Invalid arguments for req: (arguments): missing required key "toString"'));
  });
});
