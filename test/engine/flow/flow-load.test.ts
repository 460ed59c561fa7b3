import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { ConfigError, ConfigErrors } from '../../../src/config/errors.js';
import { componentHistory, initialFlowRun, mergeContext, writeOutputs } from '../../../src/engine/flow/flow-state.js';
import { loadAgentBuild, revisionFromValue } from '../../../src/engine/revision/load-build.js';
import { configErrorOf } from '../../helpers/config-error.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { configFixerBuild } from './config-fixer.js';

type Build = ReturnType<typeof configFixerBuild>;

/** Loads the config-fixer build after `change` edits it; returns the load error's message. */
function loadError(change: (build: Build) => void): string {
  const value = configFixerBuild();
  change(value);
  try {
    revisionFromValue(value);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('the build loaded');
}

describe('flows: load-time rules', () => {
  it('loads the config-fixer flow', () => {
    expect(() => revisionFromValue(configFixerBuild())).not.toThrow();
  });

  it('checks a deterministic step against its tool', () => {
    expect(
      loadError((b) => {
        b.flow.components[0].tool_name = 'read_everything';
      }),
    ).toContain('flow.components[0].tool_name: unknown tool "read_everything"');
    expect(
      loadError((b) => {
        b.flow.components[0].inputs = [{ from: 'context:config_path' }];
      }),
    ).toContain('tool "read_file" has no argument "config_path"; its arguments are: path');
    expect(
      loadError((b) => {
        b.flow.components[0].inputs = [];
      }),
    ).toContain('flow.components[0].inputs: tool "read_file" requires "path"');
    expect(
      loadError((b) => {
        b.flow.components[0].inputs = [
          { from: 'context:a', as: 'path' },
          { from: 'context:b', as: 'path' },
        ];
      }),
    ).toContain('two inputs give argument "path"');
  });

  it('takes a name listed in required but not in properties as an argument of the step', () => {
    const tool = { name: 't', description: 't', parameters: { type: 'object', properties: { x: { type: 'string' } }, required: ['y'] }, returns: 1 };
    const flow = (inputs: unknown[]) =>
      revisionFromValue({
        id: 'req',
        agent: { name: 'R', tools: [tool] },
        flow: { entry_point: 's', components: [{ name: 's', type: 'deterministic_step', tool_name: 't', inputs }], routers: [{ from: 's', to: 'end' }] },
      });
    expect(() => flow([{ literal: 'v', as: 'y' }])).not.toThrow();
    expect(() => flow([{ literal: 'v', as: 'x' }])).toThrow(/tool "t" requires "y"/);
    expect(() =>
      flow([
        { literal: 'v', as: 'y' },
        { literal: 'v', as: 'z' },
      ]),
    ).toThrow(/tool "t" has no argument "z"; its arguments are: x, y/);
  });

  it('checks an agent tool used as a step against its own parameters', () => {
    const message = loadError((b) => {
      b.agent.tools.push({
        name: 'lookup_order',
        description: 'l',
        parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
        returns: {},
      });
      b.flow.components[0].tool_name = 'lookup_order';
    });
    expect(message).toContain('tool "lookup_order" has no argument "path"');
  });

  it('does not ask for an input for a required argument whose schema has a default', () => {
    const value = configFixerBuild();
    value.agent.tools.push({
      name: 'count',
      description: 'c',
      parameters: { type: 'object', properties: { n: { type: 'integer', default: 3 } }, required: ['n'] },
      returns: {},
    });
    value.flow.components[0] = { name: 'read_config', type: 'deterministic_step', tool_name: 'count', inputs: [] };
    expect(() => revisionFromValue(value)).not.toThrow();
  });

  it('checks a literal input against the schema of its argument', () => {
    const shout = {
      name: 'shout',
      description: 's',
      parameters: { type: 'object', properties: { x: { type: 'string' }, n: { type: 'integer', minimum: 1 } }, required: ['x'] },
      returns: 'ok',
    };
    expect(
      loadError((b) => {
        b.agent.tools.push(shout);
        b.flow.components[0] = { name: 'read_config', type: 'deterministic_step', tool_name: 'shout', inputs: [{ literal: 5, as: 'x' }] };
      }),
    ).toContain('flow.components[0].inputs[0].literal: literal for argument "x" of tool "shout" does not fit its schema: expected string, got number 5');
    expect(
      loadError((b) => {
        b.agent.tools.push(shout);
        b.flow.components[0] = {
          name: 'read_config',
          type: 'deterministic_step',
          tool_name: 'shout',
          inputs: [
            { from: 'context:config_path', as: 'x' },
            { literal: 0, as: 'n' },
          ],
        };
      }),
    ).toContain('flow.components[0].inputs[1].literal: literal for argument "n" of tool "shout" does not fit its schema: expected a number >= 1, got number 0');
    // A built-in's own parameters count too.
    expect(
      loadError((b) => {
        b.flow.components[0].inputs = [{ literal: ['a.json'], as: 'path' }];
      }),
    ).toContain('flow.components[0].inputs[0].literal: literal for argument "path" of tool "read_file" does not fit its schema: expected string, got an array');
    // Local $refs resolve against the tool's $defs; the path inside the literal is named.
    const tuned = {
      name: 'tune',
      description: 't',
      parameters: {
        type: 'object',
        $defs: { Opts: { type: 'object', properties: { level: { enum: ['low', 'high'] } } } },
        properties: { opts: { $ref: '#/$defs/Opts' } },
      },
      returns: 'ok',
    };
    expect(
      loadError((b) => {
        b.agent.tools.push(tuned);
        b.flow.components[0] = { name: 'read_config', type: 'deterministic_step', tool_name: 'tune', inputs: [{ literal: { level: 'max' }, as: 'opts' }] };
      }),
    ).toContain(
      'inputs[0].literal: literal for argument "opts" of tool "tune" does not fit its schema: level: expected one of "low" | "high", got string "max"',
    );
    // Literals that fit load.
    const value = configFixerBuild();
    value.agent.tools.push(shout);
    value.flow.components[0] = {
      name: 'read_config',
      type: 'deterministic_step',
      tool_name: 'shout',
      inputs: [
        { literal: 'hi', as: 'x' },
        { literal: 3, as: 'n' },
      ],
    };
    expect(() => revisionFromValue(value)).not.toThrow();
    value.agent.tools.push(tuned);
    value.flow.components[0] = { name: 'read_config', type: 'deterministic_step', tool_name: 'tune', inputs: [{ literal: { level: 'low' }, as: 'opts' }] };
    expect(() => revisionFromValue(value)).not.toThrow();
  });

  it('says in words why a component name with ":" or "." is refused, not as a bare pattern', () => {
    const message = loadError((b) => {
      b.flow.components[1].name = 'read.config';
    });
    expect(message).toContain(
      'expected a component name without ":" or "." and not blank (state keys address it as context:<name>.key), such as lookup_step, got string "read.config"',
    );
    // Nor may it be white space alone.
    expect(
      loadError((b) => {
        b.flow.components[1].name = '  ';
      }),
    ).toContain('expected a component name without ":" or "." and not blank');
    expect(message).not.toContain('^[^:.]+$');
    // An empty name is told it is empty, not that it holds ":" or ".".
    const empty = loadError((b) => {
      b.flow.components[1].name = '';
    });
    expect(empty).toContain('flow.components[1].name: expected a component name such as lookup_step, got an empty string');
  });

  it('checks toolsets, IOKeys and component keys', () => {
    expect(
      loadError((b) => {
        b.flow.components[1].toolset = ['edit_file', 'launch'];
      }),
    ).toContain('flow.components[1].toolset[1]: unknown tool "launch" in toolset');
    expect(
      loadError((b) => {
        b.flow.components[1].inputs = ['status:now'];
      }),
    ).toContain('"status:now" reads from "status:", which is not a state channel');
    // Only agent components converse: another name is never in conversation_history (an input or a router's).
    expect(
      loadError((b) => {
        b.flow.components[2].inputs = [{ from: 'conversation_history:read_config', as: 'talk' }];
      }),
    ).toContain(
      'flow.components[2].inputs[0].from: "conversation_history:read_config" names "read_config", which is not an agent component of the flow (only those have a conversation), so the flow state never holds it; expected one of: fixer',
    );
    expect(
      loadError((b) => {
        b.flow.components[2].inputs = ['conversation_history:fixr.0.content'];
      }),
    ).toContain(
      'names "fixr", which is not an agent component of the flow (only those have a conversation), so the flow state never holds it; expected one of: fixer; did you mean "fixer"?',
    );
    // A plan component's inputs are its plan's first variables: each needs a name a template can read.
    const planReading = (inputs: object[], variable: string) =>
      loadError((b) => {
        b.flow.components[0] = {
          name: 'read_config',
          type: 'plan',
          inputs,
          plan: { steps: [{ tools: [{ name: 'read_file', arguments: { path: `{{ ${variable} }}` } }] }] },
        };
      });
    const planned = planReading(
      [
        { from: 'context:config_path', as: 'my path' },
        { from: 'context:config_path', as: 'p.x' },
        { from: 'context:config_path', as: 'path' },
      ],
      'path',
    );
    expect(planned).toContain('flow.components[0].inputs[0].as: plan input "my path" can never be read by a template');
    expect(planned).toContain('flow.components[0].inputs[1].as: plan input "p.x" can never be read by a template');
    expect(planned).not.toContain('inputs[2]');
    const twice = planReading(
      [
        { literal: 'one', as: 'x' },
        { literal: 'two', as: 'x' },
      ],
      'x',
    );
    expect(twice).toContain('flow.components[0].inputs[1]: two inputs give variable "x" (inputs[0] and inputs[1]); rename one with "as"');
    const talking = configFixerBuild();
    talking.flow.components[2].inputs = ['conversation_history:fixer'];
    expect(() => revisionFromValue(talking)).not.toThrow();
    // An empty key between dots, before the first or after the last can never be in the state.
    for (const key of ['context:a..b', 'context:.a', 'context:a.']) {
      expect(
        loadError((b) => {
          b.flow.components[1].inputs = [{ from: key, as: 'x' }];
        }),
      ).toContain(
        `flow.components[1].inputs[0].from: expected a state key such as "context:name.key": a channel, a colon, then keys joined by single dots, got string "${key}"`,
      );
    }
    const fine = configFixerBuild();
    fine.flow.components[1].inputs = ['context:read_config.items.0', { from: 'context:goal', as: 'g' }];
    expect(() => revisionFromValue(fine)).not.toThrow();
    expect(
      loadError((b) => {
        b.flow.components[2].toolset = [];
      }),
    ).toContain('"toolset" does not apply to a human_input component');
    expect(
      loadError((b) => {
        b.flow.components[1].inputs = [{ literal: 3 }];
      }),
    ).toContain('a literal input needs "as"');
    expect(
      loadError((b) => {
        b.flow.components[2].name = 'goal';
      }),
    ).toContain('"goal" is reserved');
    // approvals.tools answers a human_input by its name: a tool of the same name would share the answer.
    for (const name of ['edit_file', 'write_file']) {
      expect(
        loadError((b) => {
          b.flow.components[2].name = name;
          b.flow.routers = b.flow.routers.map((router: { from: string }) => (router.from === 'review' ? { ...router, from: name } : router));
        }),
      ).toContain(`the human_input component "${name}" shares its name with a tool: approvals.tools.${name} would answer both gates`);
    }
  });

  it('refuses a plan component named as an agent tool or a built-in: its run is recorded as a call of that name', () => {
    const planFlow = (name: string) => ({
      id: 'p',
      agent: { name: 'P', tools: [{ name: 'lookup', returns: { ok: true } }] },
      flow: {
        entry_point: name,
        components: [{ name, type: 'plan', plan: { steps: [{ tools: [{ name: 'lookup' }] }] } }],
        routers: [{ from: name, to: 'end' }],
      },
    });
    for (const name of ['lookup', 'echo']) {
      const error = configErrorOf(() => revisionFromValue(planFlow(name)));
      expect(error.path).toBe('flow.components[0].name');
      expect(error.expected).toBe(
        `the plan component "${name}" shares its name with a tool: each run is recorded as a call named after the component, which checks and the verdict would count as that tool's; pick another name`,
      );
    }
    expect(() => revisionFromValue(planFlow('lookups'))).not.toThrow();
  });

  it('checks routers: one per component, every component reached', () => {
    expect(
      loadError((b) => {
        b.flow.routers.pop();
      }),
    ).toContain('flow.components[2]: component "review" has no router');
    expect(
      loadError((b) => {
        b.flow.routers[1] = { from: 'fixer', to: 'end' };
      }),
    ).toContain('component "review" is never reached: no router from the entry point "read_config" leads to it');
    expect(
      loadError((b) => {
        b.flow.routers.push({ from: 'read_config', to: 'review' });
      }),
    ).toContain('component "read_config" already has a router (routers[0])');
    expect(
      loadError((b) => {
        b.flow.routers[0] = { from: 'read_config', to: 'fixr' };
      }),
    ).toContain('router "to" names no component: "fixr"');
    expect(
      loadError((b) => {
        b.flow.routers[1] = { from: 'fixer', condition: { input: 'context:fixer.final_answer', routes: {} } };
      }),
    ).toContain('flow.routers[1].condition.routes: expected at least 1 key(s)');
  });

  it('says a misspelt default_route is one, since as written it would never be used', () => {
    const value = configFixerBuild({ routes: { done: 'end', defualt_route: 'review' } });
    expect(() => revisionFromValue(value)).toThrow(
      'flow.routers[1].condition.routes.defualt_route: route "defualt_route": did you mean "default_route"? as written it routes only the value "defualt_route", and the router has no default_route',
    );
    // Beside a default_route it is just another value.
    expect(() => revisionFromValue(configFixerBuild({ routes: { done: 'end', defualt_route: 'review', default_route: 'review' } }))).not.toThrow();
  });
});

describe('flows: the context channel', () => {
  it('writes the outputs of components named __proto__ and constructor under their own keys, never into Object.prototype', () => {
    const run = initialFlowRun('s', [{ role: 'user', content: 'hi' }]);
    try {
      writeOutputs(run.flow, '__proto__', { tool_result: 1 });
      writeOutputs(run.flow, 'constructor', { tool_result: 2 });
      writeOutputs(run.flow, '__proto__', { error: null });
      expect(({} as Record<string, unknown>).tool_result).toBeUndefined();
      expect(Object.getPrototypeOf(run.flow.context)).toBe(Object.prototype);
      expect(JSON.stringify(run.flow.context)).toBe('{"goal":"hi","__proto__":{"tool_result":1,"error":null},"constructor":{"tool_result":2}}');
      expect(componentHistory(run.flow, 'constructor')).toEqual([]);
      expect(componentHistory(run.flow, 'toString')).toEqual([]);
    } finally {
      delete (Object.prototype as Record<string, unknown>).tool_result;
      delete (Object.prototype as Record<string, unknown>).error;
    }
  });

  it('deep-merges objects and replaces arrays and scalars', () => {
    const context: Record<string, unknown> = { a: { x: 1, list: [1, 2], keep: true }, b: 'old' };
    mergeContext(context, { a: { x: 2, list: [3] }, b: 'new', c: { d: 1 } });
    expect(context).toEqual({ a: { x: 2, list: [3], keep: true }, b: 'new', c: { d: 1 } });
  });

  it('keeps a __proto__ key of the inputs (as JSON and YAML give it, an own key) as a key, never touching Object.prototype', () => {
    const context = JSON.parse('{"__proto__": {"polluted": 1}, "a": {"__proto__": {"deep": 2}}}') as Record<string, unknown>;
    try {
      const run = initialFlowRun('s', [{ role: 'user', content: 'hi' }], context);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(({} as Record<string, unknown>).deep).toBeUndefined();
      expect(Object.getPrototypeOf(run.flow.context)).toBe(Object.prototype);
      expect(JSON.stringify(run.flow.context)).toBe('{"__proto__":{"polluted":1},"a":{"__proto__":{"deep":2}},"goal":"hi"}');
      // Merged again (a second update into the same keys), still own keys.
      mergeContext(run.flow.context, context);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(JSON.stringify(run.flow.context)).toBe('{"__proto__":{"polluted":1},"a":{"__proto__":{"deep":2}},"goal":"hi"}');
    } finally {
      // Should the merge ever reach Object.prototype again, the other tests of this worker are not run polluted.
      delete (Object.prototype as Record<string, unknown>).polluted;
      delete (Object.prototype as Record<string, unknown>).deep;
    }
  });
});

describe('flows: every load problem in one pass', () => {
  it('reports each component, input, toolset entry and router that breaks a rule, not the first only', () => {
    const tool = {
      name: 'lookup',
      description: 'l',
      parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      returns: { ok: true },
    };
    let message = '';
    try {
      revisionFromValue({
        id: 'f3',
        agent: { name: 'F3', tools: [tool] },
        flow: {
          entry_point: 'a',
          components: [
            { name: 'a', type: 'deterministic_step', tool_name: 'lookup', inputs: [{ literal: 5, as: 'id' }] },
            { name: 'g', type: 'deterministic_step', tool_name: 'lookup', inputs: [{ from: 'context:y', as: 'id' }] },
            { name: 'cd', type: 'agent', toolset: ['nope'] },
          ],
          routers: [
            { from: 'a', to: 'zzz' },
            { from: 'a', to: 'end' },
          ],
        },
      });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    const lines = message.split('\n');
    expect(lines.some((line) => line.includes('flow.components[0].inputs[0].literal'))).toBe(true);
    expect(lines.some((line) => line.includes('flow.components[2].toolset[0]: unknown tool "nope" in toolset'))).toBe(true);
    expect(lines.some((line) => line.includes('flow.routers[0].to: router "to" names no component: "zzz"'))).toBe(true);
    expect(lines.some((line) => line.includes('flow.routers[1].from: component "a" already has a router'))).toBe(true);
    expect(lines.some((line) => line.includes('component "g" has no router'))).toBe(true);
    expect(lines.some((line) => line.includes('component "cd" has no router'))).toBe(true);
    expect(lines).toHaveLength(6);
  });
});

describe('flows: rule problems beside format problems', () => {
  const problemsOf = (yaml: string) => {
    const dir = tempDir({ 'flow.yaml': yaml });
    try {
      loadAgentBuild(join(dir, 'flow.yaml'));
    } catch (error) {
      return (error instanceof ConfigErrors ? error.errors : [error as ConfigError]).map((one) => `${one.line} ${one.path}: ${one.expected}`);
    }
    return [];
  };

  it('a typo in one component hides neither the rule problems of another nor of the routers', () => {
    const problems = problemsOf(
      [
        'id: f2',
        'agent:',
        '  name: F',
        'flow:',
        '  entry_point: start',
        '  components:',
        '    - {name: a, type: deterministic_step, tool_name: raed_file, inputs: [{literal: x, as: path}]}',
        '    - {name: b, type: human_inptu}',
        '    - {name: goal, type: agent}',
        '  routers:',
        '    - {from: a, to: b}',
        '    - {from: b, to: nowhere}',
        '    - {from: goal, to: end, colour: red}',
        '',
      ].join('\n'),
    );
    expect(problems).toEqual([
      expect.stringMatching(/^5 flow\.entry_point: entry_point "start" names no component/),
      expect.stringMatching(/^7 flow\.components\[0\]\.tool_name: unknown tool "raed_file"/),
      expect.stringMatching(/^8 flow\.components\[1\]\.type: expected one of "agent" \| .* got string "human_inptu" \(did you mean "human_input"\?\)$/),
      expect.stringMatching(/^9 flow\.components\[2\]\.name: "goal" is reserved/),
      expect.stringMatching(/^12 flow\.routers\[1\]\.to: router "to" names no component: "nowhere"$/),
      expect.stringMatching(/^13 flow\.routers\[2\]\.colour: unknown key "colour"/),
    ]);
    // b, whose type has a problem, is neither said to lack a router nor to be unreachable, and
    // goal, whose router has a problem, is not said to have none.
    expect(problems.join('\n')).not.toMatch(/has no router|never reached/);
  });

  it("an unknown key of a component hides none of its other problems and is told the keys of the component's type", () => {
    const problems = problemsOf(
      [
        'id: f6',
        'agent:',
        '  name: F',
        'flow:',
        '  entry_point: a',
        '  components:',
        '    - {name: a, type: deterministic_step, tool_name: nope, foo: 1}',
        '    - {name: b, type: human_input, toolset: [], bar: 2}',
        '  routers:',
        '    - {from: a, to: b}',
        '    - {from: b, to: end}',
        '',
      ].join('\n'),
    );
    expect(problems).toEqual([
      expect.stringMatching(/^7 flow\.components\[0\]\.tool_name: unknown tool "nope"/),
      '7 flow.components[0].foo: unknown key "foo"; expected one of: name, type, tool_name, inputs',
      '8 flow.components[1].toolset: "toolset" does not apply to a human_input component; it takes: name, type, inputs',
      '8 flow.components[1].bar: unknown key "bar"; expected one of: name, type, inputs',
    ]);
  });

  it('a bad value of a component hides none of its other problems; a key its type does not take is said once, whatever it holds', () => {
    const problems = problemsOf(
      [
        'id: f7',
        'agent:',
        '  name: F',
        '  tools:',
        '    - {name: echo2, builtin: echo}',
        'flow:',
        '  entry_point: c',
        '  components:',
        '    - {name: c, type: agent, tool_name: echo, max_turns: 0, foo: 1}',
        '    - {name: d, type: human_input, toolset: [echo], inputs: "context:x"}',
        '    - {name: e, type: human_input, max_turns: 0, inputs: [5, "conversation_history:d"]}',
        '    - {name: f, type: agent, toolset: [5, nope], prompt: 7}',
        '    - {name: g, type: deterministic_step, tool_nme: echo}',
        '    - {name: h, type: deterministic_step, tool_name: 5, inputs: [{from: "context:c", as: ""}]}',
        '    - {name: i, type: plan, inputs: "x", plan: {steps: [{tools: [{name: echo, returns: 5, items: 1}]}]}}',
        '  routers:',
        '    - {from: c, to: d}',
        '    - {from: d, to: e}',
        '    - {from: e, to: f}',
        '    - {from: f, to: g}',
        '    - {from: g, to: h}',
        '    - {from: h, to: i}',
        '    - {from: i, to: end}',
        '',
      ].join('\n'),
    );
    const agentKeys = 'it takes: name, type, inputs, toolset, instructions, prompt, max_turns';
    expect(problems).toEqual([
      `9 flow.components[0].tool_name: "tool_name" does not apply to an agent component; ${agentKeys}`,
      '9 flow.components[0].max_turns: expected a number >= 1, got number 0',
      '9 flow.components[0].foo: unknown key "foo"; expected one of: name, type, inputs, toolset, instructions, prompt, max_turns',
      '10 flow.components[1].toolset: "toolset" does not apply to a human_input component; it takes: name, type, inputs',
      '10 flow.components[1].inputs: expected array, got string "context:x"',
      // Not also "expected a number >= 1": the key goes, whatever it holds.
      '11 flow.components[2].max_turns: "max_turns" does not apply to a human_input component; it takes: name, type, inputs',
      '11 flow.components[2].inputs[0]: expected string or object, got number 5',
      expect.stringMatching(/^11 flow\.components\[2\]\.inputs\[1\]: "conversation_history:d" names "d", which is not an agent component/),
      '12 flow.components[3].toolset[0]: expected string, got number 5',
      expect.stringMatching(/^12 flow\.components\[3\]\.toolset\[1\]: unknown tool "nope" in toolset/),
      '12 flow.components[3].prompt: expected string, got number 7',
      // The typo alone: not also a step that needs "tool_name".
      '13 flow.components[4].tool_nme: unknown key "tool_nme" (did you mean "tool_name"?); expected one of: name, type, tool_name, inputs',
      '14 flow.components[5].tool_name: expected string, got number 5',
      '14 flow.components[5].inputs[0].as: expected a string of at least 1 character(s)',
      '15 flow.components[6].inputs: expected array, got string "x"',
      expect.stringMatching(/^15 flow\.components\[6\]\.plan\.steps\[0\]\.tools\[0\]\.arguments: tool "echo" requires "text"/),
      '15 flow.components[6].plan.steps[0].tools[0].returns: expected string, got number 5',
      '15 flow.components[6].plan.steps[0].tools[0].items: "items" does not belong to a call to echo; expected keys: name, arguments, returns',
    ]);
  });

  it("is checked beside the agent's problems; a step whose tool has a problem of its own is not checked against it", () => {
    const problems = problemsOf(
      [
        'id: f5',
        'agent:',
        '  tools:',
        '    - {name: t, description: t, parameters: {type: object, properties: {q: {type: string}}, required: [q]}, returns: 1, colour: 1}',
        'flow:',
        '  entry_point: a',
        '  components:',
        '    - {name: a, type: deterministic_step, tool_name: t}',
        '    - {name: b, type: deterministic_step, tool_name: read_file}',
        '    - {name: c, type: agent, toolset: [t, nope]}',
        '  routers:',
        '    - {from: a, to: b}',
        '    - {from: b, to: c}',
        '    - {from: c, to: end}',
        '',
      ].join('\n'),
    );
    expect(problems).toEqual([
      '3 agent: missing required key "name"',
      expect.stringMatching(/^4 agent\.tools\[0\]\.colour: unknown key "colour"/),
      expect.stringMatching(/^9 flow\.components\[1\]\.inputs: tool "read_file" requires "path"/),
      '10 flow.components[2].toolset[1]: unknown tool "nope" in toolset; expected an agent tool or a built-in',
    ]);
  });

  it('a misspelt entry_point or component name is said once, at the typo, with nothing about "undefined"', () => {
    const entry = problemsOf(
      [
        'id: f3',
        'agent:',
        '  name: F',
        'flow:',
        '  entry_piont: a',
        '  components:',
        '    - {name: a, type: agent}',
        '  routers:',
        '    - {from: a, to: end}',
        '',
      ].join('\n'),
    );
    expect(entry).toEqual([expect.stringMatching(/^5 flow\.entry_piont: unknown key "entry_piont" \(did you mean "entry_point"\?\)/)]);
    const name = problemsOf(
      [
        'id: f4',
        'agent:',
        '  name: F',
        'flow:',
        '  entry_point: a',
        '  components:',
        '    - {name: a, type: agent}',
        '    - {nme: b, type: agent}',
        '  routers:',
        '    - {from: a, to: b}',
        '    - {from: b, to: end}',
        '',
      ].join('\n'),
    );
    expect(name).toEqual([expect.stringMatching(/^8 flow\.components\[1\]\.nme: unknown key "nme" \(did you mean "name"\?\)/)]);
    // A router's misspelt from: its component is not also said to have no router.
    const from = problemsOf(
      [
        'id: f5',
        'agent:',
        '  name: F',
        'flow:',
        '  entry_point: a',
        '  components:',
        '    - {name: a, type: agent}',
        '  routers:',
        '    - {frm: a, to: end}',
        '',
      ].join('\n'),
    );
    expect(from.join('\n')).not.toContain('has no router');
    expect(from.join('\n')).toMatch(/unknown key "frm" \(did you mean "from"\?\)/);
  });
});

describe("flows: a deterministic step's inputs", () => {
  it('report a duplicate name and an unknown argument together, and a literal without "as" once', () => {
    let message = '';
    try {
      revisionFromValue({
        id: 'f4',
        agent: { name: 'F' },
        flow: {
          entry_point: 'ab',
          components: [
            {
              name: 'ab',
              type: 'deterministic_step',
              tool_name: 'read_file',
              inputs: [{ from: 'context:x', as: 'path' }, { from: 'context:y', as: 'path' }, { from: 'context:z', as: 'bogus' }, { literal: 5 }],
            },
          ],
          routers: [{ from: 'ab', to: 'end' }],
        },
      });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('two inputs give argument "path"');
    expect(message).toContain('tool "read_file" has no argument "bogus"');
    expect(message).toContain('a literal input needs "as"');
    expect(message).not.toContain('has no argument ""');
  });
});
