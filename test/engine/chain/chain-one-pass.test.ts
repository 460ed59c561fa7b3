import { describe, expect, it } from 'vitest';
import { ConfigErrors } from '../../../src/config/errors.js';
import { join } from 'node:path';
import { loadAgentBuild, revisionFromValue } from '../../../src/engine/revision/load-build.js';
import { tempDir } from '../../helpers/temp-dir.js';

describe('a chain with several problems', () => {
  it('reports them all in one pass', () => {
    let caught: unknown;
    try {
      revisionFromValue({
        id: 'c',
        agent: {
          name: 'C',
          tools: [
            { name: 'ok', description: 'o', parameters: { type: 'object' }, returns: 1 },
            {
              name: 'flow',
              description: 'f',
              parameters: { type: 'object' },
              chain: {
                steps: [
                  { id: 'end', tool: 'ok' },
                  { tool: 'ab', on_failure: { action: 'stop', max_retries: 3 } },
                  { tool: 'ok', on_success: { next: 'nowhere' } },
                ],
              },
            },
          ],
        },
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigErrors);
    const text = (caught as ConfigErrors).errors.map((error) => error.message).join('\n');
    expect((caught as ConfigErrors).errors).toHaveLength(4);
    for (const part of ['step id "end" is reserved', 'unknown tool "ab"', '"max_retries" does not apply', '"next" names no step: "nowhere"'])
      expect(text).toContain(part);
  });

  it("a format problem in one step of a chain hides neither its other steps' unknown tools nor another tool's, nor a plan's", () => {
    const dir = tempDir({
      'cmin.yaml': [
        'id: cmin',
        'agent:',
        '  name: C',
        '  tools:',
        '    - name: c1',
        '      description: x',
        '      chain:',
        '        steps:',
        '          - {id: a, tool: echo, on_failure: {action: explode}}',
        '          - {id: b, tool: nope_tool}',
        '    - {name: c2, description: x, chain: {steps: [{id: a, tool: nope_tool2}]}}',
        '    - {name: p, description: x, plan: {steps: [{tools: [{name: nope_tool3}]}]}}',
        '',
      ].join('\n'),
    });
    let caught: unknown;
    try {
      loadAgentBuild(join(dir, 'cmin.yaml'));
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigErrors);
    // The step with the bad action is still checked key by key: its missing argument is said beside it.
    expect((caught as ConfigErrors).errors.map((error) => `${error.line} ${error.path}`)).toEqual([
      '9 agent.tools[0].chain.steps[0].inputs',
      '9 agent.tools[0].chain.steps[0].on_failure.action',
      '10 agent.tools[0].chain.steps[1].tool',
      '11 agent.tools[1].chain.steps[0].tool',
      '12 agent.tools[2].plan.steps[0].tools[0].name',
    ]);
  });

  it("refuses argument names the called tool's parameters do not take, in chain inputs and plan arguments (as for flow steps)", () => {
    const dir = tempDir({
      'u2.yaml': [
        'id: u2',
        'agent:',
        '  name: U',
        '  tools:',
        '    - {name: lookup, description: l, parameters: {type: object, properties: {order_id: {type: string}}}, returns: {}}',
        '    - {name: q, description: d, plan: {steps: [{tools: [{name: echo, arguments: {txt: hi}}, {name: lookup, arguments: {order_id: "1"}}]}]}}',
        '    - {name: r, description: d, chain: {steps: [{tool: echo, inputs: {text: hi}}, {tool: lookup, inputs: {orderid: "1"}}]}}',
        '    - {name: open, description: o, parameters: {type: object}, returns: {}}',
        '    - {name: s, description: d, chain: {steps: [{tool: open, inputs: {anything: 1}}]}}',
        '',
      ].join('\n'),
    });
    let caught: unknown;
    try {
      loadAgentBuild(join(dir, 'u2.yaml'));
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigErrors);
    expect((caught as ConfigErrors).errors.map((error) => `${error.line} ${error.path}: ${error.expected}`)).toEqual([
      '6 agent.tools[1].plan.steps[0].tools[0].arguments.txt: tool "echo" has no argument "txt"; its arguments are: text; did you mean "text"?',
      '7 agent.tools[2].chain.steps[1].inputs.orderid: tool "lookup" has no argument "orderid"; its arguments are: order_id; did you mean "order_id"?',
    ]);
  });

  it('refuses a chain step or plan call that leaves out a required argument (one with a default is filled in), as for flow steps', () => {
    const dir = tempDir({
      'ni.yaml': [
        'id: ni',
        'agent:',
        '  name: Ni',
        '  tools:',
        '    - {name: lookup, description: l, parameters: {type: object, properties: {id: {type: string}, n: {type: integer, default: 1}}, required: [id, n]}, returns: {}}',
        '    - {name: c, description: c, chain: {steps: [{id: s, tool: echo}]}}',
        '    - {name: p, description: p, plan: {steps: [{tools: [{name: lookup, arguments: {}}]}]}}',
        '    - {name: ok, description: o, chain: {steps: [{id: s, tool: lookup, inputs: {id: "{{ args.x }}"}}]}}',
        '',
      ].join('\n'),
    });
    let caught: unknown;
    try {
      loadAgentBuild(join(dir, 'ni.yaml'));
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigErrors);
    expect((caught as ConfigErrors).errors.map((error) => `${error.path}: ${error.expected}`)).toEqual([
      'agent.tools[1].chain.steps[0].inputs: tool "echo" requires "text"; give it in inputs (a template value counts)',
      'agent.tools[2].plan.steps[0].tools[0].arguments: tool "lookup" requires "id"; give it in arguments (a template value counts)',
    ]);
  });

  it('refuses a bare {{ state }} where the state has a key "state", and a map_outputs target no template can read', () => {
    const dir = tempDir({
      'st.yaml': [
        'id: st',
        'agent:',
        '  name: St',
        '  tools:',
        '    - {name: data, description: d, returns: {v: 1}}',
        '    - name: arg',
        '      description: a',
        '      parameters: {type: object, properties: {state: {type: string}, city: {type: string}}, required: [state, city]}',
        '      chain: {steps: [{tool: echo, inputs: {text: "{{ state }}"}}, {tool: echo, inputs: {text: "{{ state.state }} {{ city }}"}}]}',
        '    - name: mapped',
        '      description: m',
        '      chain: {steps: [{tool: data, on_success: {map_outputs: {v: state}}}, {tool: echo, inputs: {text: "in {{ state }}"}}]}',
        '    - {name: dotted, description: d, chain: {steps: [{tool: data, on_success: {map_outputs: {v: "a.b"}}}]}}',
        '    - {name: whole, description: w, chain: {steps: [{tool: echo, inputs: {text: "{{ state }}"}}]}}',
        '',
      ].join('\n'),
    });
    let caught: unknown;
    try {
      loadAgentBuild(join(dir, 'st.yaml'));
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigErrors);
    // `whole` has no key "state": its {{ state }} is the whole state, as documented, and loads.
    expect((caught as ConfigErrors).errors.map((error) => `${error.line} ${error.path}: ${error.expected}`)).toEqual([
      '9 agent.tools[1].chain.steps[0].inputs.text: "{{ state }}" reads the whole chain state, never the tool\'s argument "state"; write {{ state.state }} to read that key',
      '12 agent.tools[2].chain.steps[1].inputs.text: "{{ state }}" reads the whole chain state, never the map_outputs target "state" of steps[0]; write {{ state.state }} to read that key',
      '13 agent.tools[3].chain.steps[0].on_success.map_outputs.v: map_outputs target "a.b" can never be read by a template: expected a name of letters, digits, _, $ and - that starts with a letter, _ or $ (no spaces or dots)',
    ]);
  });
});
