import { describe, expect, it } from 'vitest';
import { ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { ConfigError } from '../../../src/config/errors.js';
import { runPlan } from '../../../src/engine/plan/run-plan.js';
import { isTruthy } from '../../../src/engine/plan/truthy.js';
import { configErrorOf } from '../../helpers/config-error.js';
import { build } from '../../helpers/run-agent.js';
import { revisionFromValue } from '../../../src/engine/revision/load-build.js';

function planBuild(plan: Record<string, unknown>) {
  return () => build({ tools: [{ name: 'report', description: 'Run the plan.', plan }] });
}

describe('STEP plans: truthiness and load-time rules', () => {
  it('is false exactly for false, null, 0, "", [] and {}', () => {
    for (const value of [false, null, undefined, 0, '', [], {}]) expect(isTruthy(value), JSON.stringify(value)).toBe(false);
    for (const value of [true, 1, -1, 'x', '0', 'false', [0], { a: null }]) expect(isTruthy(value), JSON.stringify(value)).toBe(true);
  });

  it('refuses a forward-referenced constant when the build loads', () => {
    expect(planBuild({ constants: { prefix: '{{ limit }}-x', limit: 5 }, steps: [] })).toThrow(ConfigError);
    expect(planBuild({ constants: { prefix: '{{ limit }}-x', limit: 5 }, steps: [] })).toThrow(
      /agent\.tools\[0\]\.plan\.constants\.prefix: constant "prefix" refers to "limit": "limit" is defined after "prefix"/,
    );
    expect(planBuild({ constants: { a: 'x{{ a }}' }, steps: [] })).toThrow(/a constant cannot refer to itself/);
    // Every bad constant in one pass, not the first one only.
    expect(planBuild({ constants: { a: '{{ b }}', b: 'x', c: '{{ c }}' }, steps: [] })).toThrow(
      /constants\.a: constant "a" refers to "b"[\s\S]*constants\.c: constant "c" refers to "c": a constant cannot refer to itself/,
    );
    // A name that is no constant may be an argument: left to the run.
    expect(planBuild({ constants: { a: '{{ who }}' }, steps: [] })).not.toThrow();
  });

  it('refuses a forward reference at run time too, naming the constant', async () => {
    const runtime = {
      tracer: trace.getTracer('test'),
      parent: ROOT_CONTEXT,
      callTool: async () => {
        throw new Error('no calls');
      },
    };
    await expect(runPlan({ constants: { a: 'x-{{ b }}', b: 1 }, steps: [] }, {}, runtime)).rejects.toMatchObject({
      code: 'PLAN_FORWARD_REFERENCE',
      message: 'constant "a" refers to "b" at constants.a: "b" is defined after "a"; constants are resolved in order, so move "b" above "a"',
    });
    // A constant may use the arguments and the constants above it.
    expect(await runPlan({ constants: { a: '{{ who }}!', b: '{{ a }}?' }, steps: [] }, { who: 'me' }, runtime)).toEqual({
      variables: { who: 'me', a: 'me!', b: 'me!?' },
      log: [],
    });
  });

  it('reports every call that breaks a rule in one pass', () => {
    const run = planBuild({ steps: [{ tools: [{ name: 'nope' }, { name: 'lookup', arguments: { id: '{{ a b }}' } }] }, { tools: [{ name: 'nope2' }] }] });
    let message = '';
    try {
      run();
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/plan\.steps\[0\]\.tools\[0\]\.name: unknown tool "nope"/);
    expect(message).toMatch(/plan\.steps\[0\]\.tools\[1\]\.arguments/);
    expect(message).toMatch(/plan\.steps\[1\]\.tools\[0\]\.name: unknown tool "nope2"/);
  });

  it('suggests the tool a misspelt call name meant', () => {
    expect(planBuild({ steps: [{ tools: [{ name: 'ecoh', arguments: {} }] }] })).toThrow(
      /unknown tool "ecoh"; expected an agent tool, a built-in, for_each or if_else; did you mean "echo"\?/,
    );
  });

  it('refuses variable names no template can read: item_name, returns and constants', () => {
    const forEach = (itemName: string) => planBuild({ steps: [{ tools: [{ name: 'for_each', items: [1], each_item: { item_name: itemName, tools: [] } }] }] });
    expect(forEach('a b')).toThrow(/plan\.steps\[0\]\.tools\[0\]\.each_item\.item_name: item_name "a b" can never be read by a template/);
    expect(forEach('1st')).toThrow(/item_name "1st" can never be read/);
    expect(forEach('$item-2')).not.toThrow();
    expect(planBuild({ steps: [{ tools: [{ name: 'lookup', arguments: { id: '1' }, returns: 'r.s' }] }] })).toThrow(
      /plan\.steps\[0\]\.tools\[0\]\.returns: returns "r\.s" can never be read by a template: expected a name of letters, digits/,
    );
    // Every bad constant in one pass, located at its key.
    let message = '';
    try {
      planBuild({ constants: { 'x y': 1, 'a.b': 2, ok_1: 3 }, steps: [] })();
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/plan\.constants\["x y"\]: constant "x y" can never be read/);
    expect(message).toMatch(/constant "a\.b" can never be read/);
    expect(message).not.toMatch(/ok_1/);
  });

  it('refuses for_each items that can never be a list: other text or a mapping, not one template', () => {
    const forEach = (items: unknown) => planBuild({ steps: [{ tools: [{ name: 'for_each', items, each_item: { item_name: 'i', tools: [] } }] }] });
    expect(forEach('abc')).toThrow(/plan\.steps\[0\]\.tools\[0\]\.items: expected a list, or one template that gives one/);
    expect(forEach({ a: 1 })).toThrow(/items: expected a list/);
    expect(forEach('files: {{ files }}')).toThrow(/items: expected a list/);
    // A space around the template makes it a longer string, stringified at run time (PLAN_NOT_AN_ARRAY).
    expect(forEach(' {{ files }} ')).toThrow(/items: expected a list/);
    // A malformed template is said once, as such.
    expect(forEach('{{ files')).toThrow(/^[^\n]*items: unclosed template "\{\{ files": expected "\}\}" to close "\{\{"$/);
    expect(forEach([1, 2])).not.toThrow();
    expect(forEach('{{ files }}')).not.toThrow();
  });

  it('refuses an if_else condition that is the same on every run: plain text, text beside its templates, a mapping or a list', () => {
    const ifElse = (condition: unknown) => planBuild({ steps: [{ tools: [{ name: 'if_else', condition, if: { tools: [] } }] }] });
    expect(ifElse('xs')).toThrow(
      /plan\.steps\[0\]\.tools\[0\]\.condition: "xs" is plain text, so the condition is always true \(a non-empty string\); write one template whose value decides, such as "\{\{ xs \}\}"$/,
    );
    expect(ifElse('')).toThrow(/condition: an empty condition is always false, so the if block never runs/);
    expect(ifElse('found {{ xs }}')).toThrow(
      /condition: "found \{\{ xs \}\}" has text beside its templates \("found "\), so it is a non-empty string on every run, always true; write the template alone, such as "\{\{ xs \}\}"$/,
    );
    expect(ifElse({ a: '{{ xs }}' })).toThrow(/condition: a mapping is always true \(it is never empty\) whatever its templates give/);
    expect(ifElse([])).toThrow(/condition: a list is always false \(it is empty\) whatever its templates give/);
    expect(ifElse('{{ xs')).toThrow(/^[^\n]*condition: unclosed template "\{\{ xs"[^\n]*$/);
    // One template, templates alone (they may all give ""), or a constant written as one.
    for (const condition of ['{{ xs }}', '{{ a.b }}', '{{ a }}{{ b }}', true, false, 0, null]) expect(ifElse(condition), String(condition)).not.toThrow();
  });

  it('refuses unknown tools and keys that do not belong to the kind of call', () => {
    expect(planBuild({ steps: [{ tools: [{ name: 'nope' }] }] })).toThrow(/plan\.steps\[0\]\.tools\[0\]\.name: unknown tool "nope"/);
    expect(planBuild({ steps: [{ tools: [{ name: 'for_each', items: [], returns: 'x', each_item: { item_name: 'i', tools: [] } }] }] })).toThrow(
      /"returns" does not belong to system tool for_each \(system tools return nothing\)/,
    );
    expect(planBuild({ steps: [{ tools: [{ name: 'echo', items: [] }] }] })).toThrow(/"items" does not belong to a call to echo/);
    expect(planBuild({ steps: [{ tools: [{ name: 'if_else', condition: true }] }] })).toThrow(/if_else needs an "if" block/);
  });

  it("reports every key that does not belong to a call in one pass, beside the call's other problems", () => {
    const calls = [
      { name: 'echo', arguments: { text: 'a' }, items: '{{ x }}', condition: '{{ y }}', if: { tools: [] } },
      { name: 'if_else', condition: '{{ x }}', if: { tools: [{ name: 'nope' }] }, arguments: { a: 1 }, returns: 'r' },
    ];
    const lines = configErrorOf(planBuild({ steps: [{ tools: calls }] })).message.split('\n');
    expect(lines).toEqual([
      expect.stringMatching(/tools\[0\]\.items: "items" does not belong to a call to echo; expected keys: name, arguments, returns$/),
      expect.stringMatching(/tools\[0\]\.condition: "condition" does not belong to a call to echo;/),
      expect.stringMatching(/tools\[0\]\.if: "if" does not belong to a call to echo;/),
      expect.stringMatching(/tools\[1\]\.arguments: "arguments" does not belong to system tool if_else; expected keys: name, condition, if, else$/),
      expect.stringMatching(/tools\[1\]\.returns: "returns" does not belong to system tool if_else \(system tools return nothing\);/),
      // The if_else's own block is still checked.
      expect.stringMatching(/tools\[1\]\.if\.tools\[0\]\.name: unknown tool "nope"/),
    ]);
  });

  it("says an unknown key of a call with its kind's keys, beside the call's tool, arguments and misplaced keys", () => {
    const calls = [
      { name: 'echo', arguments: { txt: 'hi' }, items: 'x', foo: 1 },
      { name: 'for_each', items: [], each_item: { item_name: 'i', tools: [{ name: 'nope', bar: 2 }] }, baz: 3 },
    ];
    const lines = configErrorOf(planBuild({ steps: [{ tools: calls }] })).message.split('\n');
    // In memory there are no lines to order by: each problem once, in any order.
    expect(lines).toHaveLength(6);
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/tools\[0\]\.arguments\.txt: tool "echo" has no argument "txt"/),
        expect.stringMatching(/tools\[0\]\.items: "items" does not belong to a call to echo; expected keys: name, arguments, returns$/),
        expect.stringMatching(/tools\[0\]\.foo: unknown key "foo"; expected one of: name, arguments, returns$/),
        expect.stringMatching(/tools\[1\]\.each_item\.tools\[0\]\.name: unknown tool "nope"/),
        expect.stringMatching(/tools\[1\]\.each_item\.tools\[0\]\.bar: unknown key "bar"; expected one of: name, arguments, returns$/),
        expect.stringMatching(/tools\[1\]\.baz: unknown key "baz"; expected one of: name, items, each_item$/),
      ]),
    );
  });

  it("says so inside a flow plan component too: an unknown key of a call hides none of its problems and is told its kind's keys", () => {
    const calls = [
      { name: 'echo', arguments: { txt: 'hi' }, items: 'x', foo: 1 },
      { name: 'for_each', items: [], each_item: { item_name: 'i', tools: [{ name: 'nope', bar: 2 }] }, baz: 3 },
    ];
    const flowBuild = () =>
      revisionFromValue({
        id: 'flow-plan',
        agent: { name: 'P' },
        flow: { entry_point: 'p', components: [{ name: 'p', type: 'plan', plan: { steps: [{ tools: calls }] } }], routers: [{ from: 'p', to: 'end' }] },
      });
    const lines = configErrorOf(flowBuild).message.split('\n');
    const at = 'flow\\.components\\[0\\]\\.plan\\.steps\\[0\\]\\.';
    expect(lines).toHaveLength(6);
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`${at}tools\\[0\\]\\.arguments\\.txt: tool "echo" has no argument "txt"`)),
        expect.stringMatching(new RegExp(`${at}tools\\[0\\]\\.items: "items" does not belong to a call to echo; expected keys: name, arguments, returns$`)),
        expect.stringMatching(new RegExp(`${at}tools\\[0\\]\\.foo: unknown key "foo"; expected one of: name, arguments, returns$`)),
        expect.stringMatching(new RegExp(`${at}tools\\[1\\]\\.each_item\\.tools\\[0\\]\\.name: unknown tool "nope"`)),
        expect.stringMatching(new RegExp(`${at}tools\\[1\\]\\.each_item\\.tools\\[0\\]\\.bar: unknown key "bar"; expected one of: name, arguments, returns$`)),
        expect.stringMatching(new RegExp(`${at}tools\\[1\\]\\.baz: unknown key "baz"; expected one of: name, items, each_item$`)),
      ]),
    );
  });

  it("a bad value of a call hides none of its other keys' problems, and an unknown key beside it is told the call's own keys", () => {
    const calls = [
      { name: 'echo', arguments: { text: 'x' }, returns: 5, items: '{{ a }}' },
      { name: 'echo', arguments: { text: 'x' }, returns: 5, foo: 1 },
      { name: 'echo', arguments: 5, returns: 'a b' },
      // A misspelt key is said once, as the typo with its kind's keys: not also as a missing one.
      { name: 'for_each', itms: '{{ a }}', returns: 5, each_item: { item_name: 'a b', tools: [{ name: 'nope' }] } },
      { name: 'if_else', condition: true, if: { tools: [{ name: 'echo', arguments: { txt: 'x' }, returns: '' }] }, else: { tools: 3 } },
      // A call whose kind is unknown (no valid name) is said by its format problems alone.
      { nme: 'echo', returns: 5 },
    ];
    const lines = configErrorOf(planBuild({ steps: [{ tools: calls }] })).message.split('\n');
    const at = (call: number, rest: string) => `<inline> at agent.tools[0].plan.steps[0].tools[${call}].${rest}`;
    // In memory there are no lines to order by: each problem once, in any order.
    expect(lines.sort()).toEqual(
      [
        at(0, 'returns: expected string, got number 5'),
        at(0, 'items: "items" does not belong to a call to echo; expected keys: name, arguments, returns'),
        at(1, 'returns: expected string, got number 5'),
        at(1, 'foo: unknown key "foo"; expected one of: name, arguments, returns'),
        at(2, 'arguments: expected object, got number 5'),
        at(
          2,
          'returns: returns "a b" can never be read by a template: expected a name of letters, digits, _, $ and - that starts with a letter, _ or $ (no spaces or dots)',
        ),
        at(3, 'itms: unknown key "itms" (did you mean "items"?); expected one of: name, items, each_item'),
        at(3, 'returns: "returns" does not belong to system tool for_each (system tools return nothing); expected keys: name, items, each_item'),
        at(
          3,
          'each_item.item_name: item_name "a b" can never be read by a template: expected a name of letters, digits, _, $ and - that starts with a letter, _ or $ (no spaces or dots)',
        ),
        at(3, 'each_item.tools[0].name: unknown tool "nope"; expected an agent tool, a built-in, for_each or if_else'),
        at(4, 'if.tools[0].arguments.txt: tool "echo" has no argument "txt"; its arguments are: text; did you mean "text"?'),
        at(4, 'if.tools[0].returns: expected a string of at least 1 character(s)'),
        at(4, 'else.tools: expected array, got number 3'),
        at(5, 'nme: unknown key "nme" (did you mean "name"?); expected one of: name, arguments, returns, items, each_item, condition, if, else'),
        at(5, 'returns: expected string, got number 5'),
      ].sort(),
    );
  });

  it('takes a name listed in required but not in properties as an argument (JSON Schema allows it)', () => {
    const tool = { name: 't', description: 't', parameters: { type: 'object', properties: { x: { type: 'string' } }, required: ['y'] }, returns: 1 };
    const plan = (args: Record<string, unknown>) => () =>
      build({ tools: [tool, { name: 'report', description: 'r', plan: { steps: [{ tools: [{ name: 't', arguments: args }] }] } }] });
    expect(plan({ y: 'v' })).not.toThrow();
    expect(plan({ x: 'v' })).toThrow(/tool "t" requires "y"/);
    expect(plan({ y: 'v', z: 1 })).toThrow(/tool "t" has no argument "z"; its arguments are: x, y/);
  });
});
