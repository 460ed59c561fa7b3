import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, ConfigErrors } from '../../../src/config/errors.js';
import type { LoadContext } from '../../../src/runner/scenario/load-context.js';
import { loadScenarioFile } from '../../../src/runner/scenario/load-scenario-file.js';
import { loadSuite } from '../../../src/runner/suite/load-suite.js';
import { emptySuiteConfig } from '../../../src/runner/suite/suite-config.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { configErrorOf } from '../../helpers/config-error.js';

const AGENT = 'id: bot\nagent:\n  name: Bot\n  tools: [{name: refund, parameters: {type: object, properties: {amount: {type: number}}}, returns: 1}]\n';
const TEMPLATE = [
  'name: "refund {{ vars.order }}"',
  'agent: agent.yaml',
  'inputs: {messages: [{role: user, content: "Refund order {{vars.order}} of {{ vars.amount }} EUR"}]}',
  'model: {script: [{tool_calls: [{name: refund, args: {amount: "{{ vars.amount }}"}}]}, {text: done}]}',
  'expect: {checks: [{tool_called: {tool: refund, args: {amount: "{{ vars.amount }}"}}}]}',
].join('\n');

function load(files: Record<string, string>, selection: { grep?: string; shard?: { index: number; total: number } } = {}) {
  const dir = tempDir(files);
  return loadSuite({ paths: [dir], config: emptySuiteConfig(dir), ...selection }, dir);
}

function loadError(files: Record<string, string>): ConfigError {
  return configErrorOf(() => load(files));
}

describe('scenario datasets', () => {
  it('checks a defaults template only against scenarios that inherit the field, not those that set their own', () => {
    const shared = [
      'defaults:',
      '  agent: agent.yaml',
      '  inputs: {messages: [{role: user, content: "x is {{ vars.x }}"}]}',
      '  model: {script: [{text: ok}]}',
      'scenarios:',
      '  - {name: "with x {{ vars.x }}", dataset: [{x: "2"}]}',
      '  - {name: plain, inputs: {messages: [{role: user, content: no template}]}}',
      '  - {name: "own {{ vars.y }}", dataset: [{y: "3"}], inputs: {messages: [{role: user, content: "y is {{ vars.y }}"}]}}',
    ].join('\n');
    const plan = load({ 'agent.yaml': AGENT, 'e.scenarios.yaml': `${shared}\n` });
    expect(plan.scenarios.map((s) => [s.name, s.inputs.messages[0].content])).toEqual([
      ['with x 2', 'x is 2'],
      ['plain', 'no template'],
      ['own 3', 'y is 3'],
    ]);
    // A scenario that does inherit the templated field still needs its dataset.
    const missing = loadError({ 'agent.yaml': AGENT, 'e.scenarios.yaml': `${shared}\n  - {name: inherits}\n` });
    expect(missing.message).toContain('at defaults.inputs.messages[0].content: uses {{ vars.* }}, but the scenario has no dataset');
  });

  it('a CSV dataset gives one scenario per row, named and filled from the row', () => {
    const plan = load({
      'agent.yaml': AGENT,
      'r.scenario.yaml': `${TEMPLATE}\ndataset: orders.csv\n`,
      'orders.csv': 'order,amount\nA-1,20\n"A-2, late","1,000"\n',
    });
    expect(plan.scenarios.map((s) => s.id)).toEqual(['r.scenario.yaml#refund A-1', 'r.scenario.yaml#refund A-2, late']);
    expect(plan.scenarios[1].inputs.messages[0].content).toBe('Refund order A-2, late of 1,000 EUR');
    expect(plan.scenarios[0].expect.checks).toEqual([{ tool_called: { tool: 'refund', args: { amount: '20' } } }]);
  });

  it('a JSONL dataset keeps a value its type where a string is exactly one template', () => {
    const plan = load({
      'agent.yaml': AGENT,
      'r.scenario.yaml': `${TEMPLATE}\ndataset: data/orders.jsonl\n`,
      'data/orders.jsonl': '{"order": "B-1", "amount": 20}\n\n{"order": "B-2", "amount": 35.5}\n',
    });
    expect(plan.scenarios.map((s) => s.name)).toEqual(['refund B-1', 'refund B-2']);
    expect(plan.scenarios[1].script?.[0].tool_calls?.[0].args).toEqual({ amount: 35.5 });
    expect(plan.scenarios[1].inputs.messages[0].content).toBe('Refund order B-2 of 35.5 EUR');
  });

  it('refuses a JSONL row nested deeper than a loaded file may be, naming the line, without a stack overflow', () => {
    const error = loadError({
      'agent.yaml': AGENT,
      'r.scenario.yaml': `${TEMPLATE}\ndataset: rows.jsonl\n`,
      'rows.jsonl': `{"order": "A", "amount": 1}\n{"order": ${'['.repeat(10_000)}${']'.repeat(10_000)}, "amount": 2}\n`,
    });
    expect(error.message).toContain('rows.jsonl:2: is nested more than 100 levels deep (under order); dataset rows are refused beyond that');
  });

  it('an inline dataset, also in a scenarios file with defaults', () => {
    const file = `defaults: {agent: agent.yaml, model: {script: [{text: done}]}}\nscenarios:\n  - name: "ask {{ vars.q }}"\n    inputs: {messages: [{role: user, content: "{{ vars.q }}"}]}\n    dataset: [{q: one}, {q: two}]\n  - name: plain\n    inputs: {messages: [{role: user, content: hi}]}\n`;
    expect(load({ 'agent.yaml': AGENT, 'a.scenarios.yaml': file }).scenarios.map((s) => s.name)).toEqual(['ask one', 'ask two', 'plain']);
  });

  it('--grep and --shard select among expanded rows like any scenarios', () => {
    const files = { 'agent.yaml': AGENT, 'r.scenario.yaml': `${TEMPLATE}\ndataset: orders.csv\n`, 'orders.csv': 'order,amount\nA-1,1\nA-2,2\nA-3,3\nA-4,4\n' };
    expect(load(files, { grep: 'A-3' }).scenarios.map((s) => s.name)).toEqual(['refund A-3']);
    const first = load(files, { shard: { index: 1, total: 2 } }).scenarios.map((s) => s.name);
    const second = load(files, { shard: { index: 2, total: 2 } }).scenarios.map((s) => s.name);
    expect(first).toHaveLength(2);
    expect([...first, ...second].sort()).toEqual(['refund A-1', 'refund A-2', 'refund A-3', 'refund A-4']);
  });

  it("a dataset in a file's defaults expands every scenario, and each row repeats like any scenario", () => {
    const file = `defaults: {agent: agent.yaml, model: {script: [{text: done}]}, dataset: [{n: "1"}, {n: "2"}]}\nscenarios:\n  - {name: "a{{ vars.n }}", inputs: {messages: [{role: user, content: hi}]}}\n  - {name: "b{{ vars.n }}", inputs: {messages: [{role: user, content: hi}]}}\n`;
    const dir = tempDir({ 'agent.yaml': AGENT, 'a.scenarios.yaml': file });
    const plan = loadSuite({ paths: [dir], config: emptySuiteConfig(dir), repeat: 2 }, dir);
    expect(plan.scenarios.map((s) => s.name)).toEqual(['a1', 'a2', 'b1', 'b2']);
    expect(plan.runs).toHaveLength(8);
  });

  it('a row missing a variable the scenario uses names the dataset file and row line', () => {
    const missing = loadError({ 'agent.yaml': AGENT, 'r.scenario.yaml': `${TEMPLATE}\ndataset: orders.csv\n`, 'orders.csv': 'order,amt\nA-1,20\n' });
    expect(missing.message).toMatch(/orders\.csv:2: the row has no variable "amount"/);
    expect(missing.path).toBe('inputs.messages[0].content');
    expect(missing.line).toBe(3);
  });

  it('reads a column named as templates name things (order-id), and says what a NAME may hold', () => {
    const scenarioOf = (content: string) =>
      `name: "ask {{ vars.n }}"\nagent: agent.yaml\ninputs: {messages: [{role: user, content: "${content}"}]}\nmodel: {script: [{text: done}]}\ndataset: rows.csv\n`;
    const plan = load({ 'agent.yaml': AGENT, 'r.scenario.yaml': scenarioOf('order {{ vars.order-id }}'), 'rows.csv': 'n,order-id,first name\na,A-1,Bob\n' });
    expect(plan.scenarios[0].inputs.messages[0].content).toBe('order A-1');
    const spaced = loadError({
      'agent.yaml': AGENT,
      'r.scenario.yaml': scenarioOf('hi {{ vars.first name }}'),
      'rows.csv': 'n,order-id,first name\na,A-1,Bob\n',
    });
    expect(spaced.message).toContain(
      'NAME of letters, digits, _, $ and - starting with a letter, _ or $, KEY of the same characters (a column named with a space or a dot, or starting with a digit, cannot be read: rename it)',
    );
  });

  it('still reports the problems no row can change when the dataset cannot be read', () => {
    const error = loadError({
      'agent.yaml': AGENT,
      'r.scenario.yaml': `${TEMPLATE.replace(/\nexpect: .*/, '')}\ndataset: orders.csv\ntagz: [x]\nexpect: {checks: [{output: {contain: x}}, {output: {contains: "{{ vars.order }}", bogus: 1}}]}\n`,
      'orders.csv': 'order,amount\nA-1,20,x\n',
    });
    expect(error.message).toContain('orders.csv:2: has 3 field(s); expected 2');
    expect(error.message).toMatch(/at tagz: unknown key "tagz" \(did you mean "tags"\?\)/);
    expect(error.message).toMatch(/at expect\.checks\[0\]\.output\.contain: unknown key "contain"/);
    // A check holding a template waits for the rows.
    expect(error.message).not.toContain('bogus');
  });

  it("records a dataset scenario whose rows cannot be loaded once as its variants' subject, with its build and delta", () => {
    const scenario = (dataset: string, content = 'go') =>
      `name: "r {{ vars.id }}"\nagent: agent.yaml\ndelta: {set: {agent: {max_turns: 3}}}\ndataset: ${dataset}\ninputs: {messages: [{role: user, content: "${content}"}]}\n`;
    for (const [file, extra] of [
      [scenario('orders.csv'), { 'orders.csv': 'id\n1,2\n3,4\n' }],
      [scenario('missing.csv'), {}],
      [scenario('[{id: "1"}, {id: "2"}, {id: "3"}]', '{{ vars.nope }}'), {}],
      [scenario('[]'), {}],
    ] as const) {
      const dir = tempDir({ 'agent.yaml': AGENT, 'r.scenario.yaml': file, ...extra });
      const context: LoadContext = { agents: new Map(), subjects: [] };
      expect(() => loadScenarioFile({ file: join(dir, 'r.scenario.yaml'), root: dir }, context), file).toThrow(ConfigError);
      expect(
        context.subjects?.map((subject) => [subject.id, subject.agentFile, subject.revision.build.agent?.max_turns, subject.beforeModel]),
        file,
      ).toEqual([['r.scenario.yaml#r {{ vars.id }}', join(dir, 'agent.yaml'), 3, false]]);
    }
  });

  it('lists every CSV record with the wrong number of fields in one pass, each at the dataset key', () => {
    const error = loadError({ 'agent.yaml': AGENT, 'r.scenario.yaml': `${TEMPLATE}\ndataset: orders.csv\n`, 'orders.csv': 'order,amount\nA-1,20,x\nA-2\n' });
    expect(error.message).toContain('orders.csv:2: has 3 field(s); expected 2');
    expect(error.message).toContain('orders.csv:3: has 1 field(s); expected 2');
  });

  it('lists every inline row that is no mapping in one pass, each at its own index, saying what it got', () => {
    const error = loadError({ 'agent.yaml': AGENT, 'r.scenario.yaml': `${TEMPLATE}\ndataset: [1, {order: A-1, amount: 20}, "s", null]\n` });
    for (const [index, got] of [
      [0, 'number 1'],
      [2, 'string "s"'],
      [3, 'null'],
    ])
      expect(error.message).toMatch(
        new RegExp(`r\\.scenario\\.yaml:6:\\d+ at dataset\\[${index}\\]: expected a row: a mapping of variable names to values, got ${got}$`, 'm'),
      );
    expect(error.message).not.toContain('dataset[1]');
  });

  it("says a bad row of the defaults' dataset once, in the words of any row, though the file's format and each scenario meet it", () => {
    const file = `defaults: {agent: agent.yaml, model: {script: [{text: done}]}, inputs: {messages: [{role: user, content: hi}]}, dataset: [1, {n: "1"}]}\nscenarios:\n  - {name: "a{{ vars.n }}"}\n  - {name: "b{{ vars.n }}"}\n`;
    const error = loadError({ 'agent.yaml': AGENT, 'a.scenarios.yaml': file });
    expect(error.message.split('\n')).toEqual([
      expect.stringMatching(/a\.scenarios\.yaml:1:\d+ at defaults\.dataset\[0\]: expected a row: a mapping of variable names to values, got number 1$/),
    ]);
  });

  it("checks the sound rows beside the rows that are no row, inline or JSONL: a row's missing variable and the scenario's unknown tool are said too", () => {
    const scenario = (dataset: string) =>
      `name: "r {{ vars.id }}"\nagent: agent.yaml\ndataset: ${dataset}\ninputs: {messages: [{role: user, content: go}]}\nexpect: {checks: [{tool_called: {tool: refnd}}]}\n`;
    for (const [files, bad, missing] of [
      [{ 'r.scenario.yaml': scenario('[{id: x}, {}, 5]') }, /at dataset\[2\]: expected a row: .*, got number 5$/m, 'dataset[1]: the row has no variable "id"'],
      [
        { 'r.scenario.yaml': scenario('rows.jsonl'), 'rows.jsonl': '{"id": "x"}\n{}\n5\n' },
        /rows\.jsonl:3:1: expected a JSON object of variables, got 5$/m,
        'rows.jsonl:2: the row has no variable "id"',
      ],
    ] as const) {
      const error = loadError({ 'agent.yaml': AGENT, ...files });
      expect(error.message).toMatch(bad);
      expect(error.message).toContain(missing);
      expect(error.message).toMatch(/at expect\.checks\[0\]\.tool_called\.tool: .*"refnd".*did you mean "refund"/);
    }
  });

  it("reads into a JSONL row's object with {{ vars.NAME.KEY }}, and refuses anything else that starts like a template", () => {
    const nested = (content: string) =>
      `name: "ask {{ vars.id }}"\nagent: agent.yaml\ninputs: {messages: [{role: user, content: '${content}'}]}\nmodel: {script: [{text: done}]}\ndataset: [{id: "1", n: {a: deep, list: [x, y]}}]\n`;
    const plan = load({ 'agent.yaml': AGENT, 'r.scenario.yaml': nested('say {{ vars.n.a }} and {{ vars.n.list.1 }}') });
    expect(plan.scenarios[0].inputs.messages[0].content).toBe('say deep and y');
    const missingKey = loadError({ 'agent.yaml': AGENT, 'r.scenario.yaml': nested('say {{ vars.n.b }}') });
    expect(missingKey.message).toContain('dataset[0]: the row\'s variable "n" has no "n.b", which the scenario uses here');
    // A list's length is no item of it, as in the engine's templates.
    const length = loadError({ 'agent.yaml': AGENT, 'r.scenario.yaml': nested('say {{ vars.n.list.length }}') });
    expect(length.message).toContain('the row\'s variable "n" has no "n.list.length", which the scenario uses here');
    for (const typo of ['{{ vars.id | upper }}', '{{ vars["id"] }}', '{{ vars.id }']) {
      const error = loadError({ 'agent.yaml': AGENT, 'r.scenario.yaml': nested(`say ${typo}`) });
      expect(error.path, typo).toBe('inputs.messages[0].content');
      expect(error.message, typo).toContain('is not a dataset template: expected {{ vars.NAME }} or {{ vars.NAME.KEY }}');
    }
  });

  it("refuses a template of another name ({{ var.id }}, {{ env.HOME }}), never sending it as written, but keeps the inline delta's tool templates and a row value's braces", () => {
    const scenario = (content: string, check = '{tool_not_called: {tool: refund, args: {order: "{{ var.id }}"}}}') =>
      `name: "ask {{ vars.id }}"\nagent: agent.yaml\ninputs: {messages: [{role: user, content: '${content}'}]}\nmodel: {script: [{text: done}]}\ndataset: [{id: "1", raw: "{{ user.name }}"}]\nexpect: {checks: [${check}]}\n`;
    const error = loadError({ 'agent.yaml': AGENT, 'r.scenario.yaml': scenario('say {{ var.id }}, {{ env.HOME }} and {{ name }}') });
    const lines = error.message.split('\n');
    expect(lines.map((line) => /at (\S+): "([^"]*)" is not a dataset template: a scenario with a dataset reads its row as/.exec(line)?.slice(1))).toEqual([
      ['inputs.messages[0].content', '{{ var.id }}'],
      ['inputs.messages[0].content', '{{ env.HOME }}'],
      ['inputs.messages[0].content', '{{ name }}'],
      ['expect.checks[0].tool_not_called.args.order', '{{ var.id }}'],
    ]);
    // Text that is no template name is sent as written; braces from a row's value are not rendered again.
    const plan = load({ 'agent.yaml': AGENT, 'r.scenario.yaml': scenario('say {{ vars.raw }} {{"a": 1}} {{ .State }}', '{tool_called: {tool: refund}}') });
    expect(plan.scenarios[0].inputs.messages[0].content).toBe('say {{ user.name }} {{"a": 1}} {{ .State }}');
    const withDelta = scenario('say {{ vars.id }}', '{tool_called: {tool: refund}}').replace(
      'inputs:',
      'delta: {set: {agent: {instructions: "Use {{ args.order }} as given"}}}\ninputs:',
    );
    expect(load({ 'agent.yaml': AGENT, 'r.scenario.yaml': withDelta }).scenarios).toHaveLength(1);
  });

  it('quotes the names a row has, and says a CSV column has white space around its name', () => {
    const scenario = `${TEMPLATE.replace(/\nexpect: .*/, '')}\ndataset: orders.csv\n`;
    const error = loadError({ 'agent.yaml': AGENT, 'r.scenario.yaml': scenario, 'orders.csv': 'order , amount\nA-1,20\n' });
    expect(error.message).toContain(
      'orders.csv:2: the row has no variable "order", which the scenario uses here; the row has: "order ", " amount" (the column "order " has white space around its name: remove it from the header)',
    );
    const inner = (header: string) =>
      loadError({
        'agent.yaml': AGENT,
        'r.scenario.yaml': scenario.replace(/\{\{ ?vars\.order ?\}\}/g, '{{ vars.order_id }}'),
        'orders.csv': `${header},amount\nA-1,20\n`,
      });
    const dotted = loadError({
      'agent.yaml': AGENT,
      'r.scenario.yaml': scenario.replace(/\{\{ ?vars\.order ?\}\}/g, '{{ vars.order.id }}'),
      'orders.csv': 'order.id,amount\nA-1,20\n',
    });
    expect(dotted.message).toContain(
      '(the column "order.id" cannot be read by a template, its name holding a dot, which a template reads as a key inside a variable: rename it, e.g. "order_id")',
    );
    for (const header of ['order id', 'order.id']) {
      expect(inner(header).message).toContain(
        `(the column "${header}" cannot be read by a template, its name holding a space or a dot: rename it "order_id" in the header)`,
      );
    }
  });

  it("lists every row's template problems and the duplicate names in one pass", () => {
    const error = loadError({
      'agent.yaml': AGENT,
      'r.scenario.yaml': `${TEMPLATE.replace('Refund order {{vars.order}}', '{{ vars.ordr }} {{ vars.amount | upper }}')}\ndataset: orders.csv\n`,
      'orders.csv': 'order,amount\nA-1,20\nA-2,30\nA-1,20\n',
    });
    const lines = error.message.split('\n');
    expect(lines.some((line) => line.includes('both give the scenario name "refund A-1"'))).toBe(true);
    expect(lines.some((line) => line.includes('the row has no variable "ordr"'))).toBe(true);
    expect(lines.some((line) => line.includes('"{{ vars.amount | upper }}" is not a dataset template'))).toBe(true);
    // Each problem once, for the first row that shows it, not once per row.
    expect(lines.filter((line) => line.includes('"ordr"'))).toHaveLength(1);
  });

  it('names every row that lacks a variable other rows give, in one pass; a variable no row gives once', () => {
    const scenario = `${TEMPLATE.replace(/\nexpect: .*/, '')}\ndataset: orders.jsonl\n`;
    const rows = ['{"order": "A-1", "amount": 20}', '{"order": "A-2"}', '{"order": "A-3", "amount": 5}', '{"order": "A-4"}'].join('\n');
    const lines = loadError({ 'agent.yaml': AGENT, 'r.scenario.yaml': scenario, 'orders.jsonl': `${rows}\n` }).message.split('\n');
    // Rows 2 and 4 are what is wrong (rows 1 and 3 give amount): each is said, at each use.
    const lacking = lines.filter((line) => line.includes('the row has no variable "amount"'));
    expect(lacking.map((line) => /at (\S+): (orders\.jsonl:\d+):/.exec(line)?.slice(1)).sort()).toEqual([
      ['inputs.messages[0].content', 'orders.jsonl:2'],
      ['inputs.messages[0].content', 'orders.jsonl:4'],
      ['model.script[0].tool_calls[0].args.amount', 'orders.jsonl:2'],
      ['model.script[0].tool_calls[0].args.amount', 'orders.jsonl:4'],
    ]);
    // A variable no row gives is the template's typo: said once, for the first row, though the
    // rows' lists of what they have differ (rows 1 and 2 here).
    const typo = loadError({ 'agent.yaml': AGENT, 'r.scenario.yaml': scenario.replace('{{vars.order}}', '{{ vars.ordr }}'), 'orders.jsonl': `${rows}\n` });
    const ordr = typo.message.split('\n').filter((line) => line.includes('"ordr"'));
    expect(ordr.map((line) => /(orders\.jsonl:\d+): the row has no variable "ordr"/.exec(line)?.[1])).toEqual(['orders.jsonl:1']);
  });

  it('says a misspelt variable no row gives once at its use, whatever keys each JSONL row has', () => {
    const scenario = TEMPLATE.replace('"Refund order {{vars.order}} of {{ vars.amount }} EUR"', '"{{ vars.mesage }}"').replace(/\nexpect: .*/, '');
    const rows = '{"order": "1", "amount": 1, "reason": "damaged"}\n{"order": "2", "amount": 1}\n{"order": "3", "amount": 1}\n';
    const error = loadError({ 'agent.yaml': AGENT, 'r.scenario.yaml': `${scenario}\ndataset: rows.jsonl\n`, 'rows.jsonl': rows });
    const mesage = error.message.split('\n').filter((line) => line.includes('"mesage"'));
    expect(mesage).toEqual([expect.stringContaining('rows.jsonl:1: the row has no variable "mesage"')]);
  });

  it('says a problem about a key beside a template, or about a check around one, once, not for each row', () => {
    const withChecks = (checks: string) => `${TEMPLATE.replace(/\nexpect: .*/, '')}\nexpect: {checks: [${checks}]}\ndataset: o.csv\n`;
    const csv = 'order,amount,rubric\nA-1,1,polite\nA-2,2,kind\nA-3,3,brief\n';
    const lines = loadError({
      'agent.yaml': AGENT,
      'r.scenario.yaml': withChecks('{tool_not_called: {tool: refund, args: {amont: "{{ vars.amount }}"}}}, {judge: {rubric: "{{ vars.rubric }}"}}'),
      'o.csv': csv,
    }).message.split('\n');
    // The key is written as it is for every row; the judge lacks a grader whatever its rubric.
    expect(lines.filter((line) => line.includes('argument "amont" is not a parameter'))).toEqual([expect.stringContaining('(dataset row o.csv:2)')]);
    expect(lines.filter((line) => line.includes('a judge check needs a grader model'))).toEqual([expect.stringContaining('(dataset row o.csv:2)')]);
    expect(lines).toHaveLength(2);
  });

  it('reports every malformed template of one string, beside a missing variable', () => {
    const scenario = TEMPLATE.replace('"Refund order {{vars.order}} of {{ vars.amount }} EUR"', '"{{ vars.1 }} and {{ vars.x | y }} and {{ vars.nope }}"');
    const lines = loadError({ 'agent.yaml': AGENT, 'r.scenario.yaml': `${scenario}\ndataset: [{order: a, amount: 1}]\n` }).message.split('\n');
    expect(lines.filter((line) => line.includes('is not a dataset template')).map((line) => /"([^"]*)" is not/.exec(line)?.[1])).toEqual([
      '{{ vars.1 }}',
      '{{ vars.x | y }}',
    ]);
    expect(lines.some((line) => line.includes('the row has no variable "nope"'))).toBe(true);
  });

  it('a $range bound from a CSV column is a type error at the bound, with the CSV rule', () => {
    const scenario = `${TEMPLATE.replace(/\nexpect: .*/, '')}\ndataset: orders.csv\nexpect: {checks: [{tool_called: {tool: refund, args: {amount: {$range: ["{{ vars.amount }}", 100]}}}}]}\n`;
    const error = loadError({ 'agent.yaml': AGENT, 'r.scenario.yaml': scenario, 'orders.csv': 'order,amount\nA-1,20\n' });
    expect(error.message).toContain(
      'at expect.checks[0].tool_called.args.amount.$range[0]: expected a number ($range needs [min, max], two numbers), got string "20" (dataset row orders.csv:2); CSV values are text',
    );
  });

  it("a variable no row gives does not hide the scenario's problems that no row can change", () => {
    const scenario = `${TEMPLATE.replace('{{vars.order}}', '{{ vars.ordr }}').replace(/\nexpect: .*/, '')}\ndataset: orders.csv\ndescriptio: x\nexpect: {checks: [{tool_caled: {tool: refund}}]}\n`;
    const lines = loadError({ 'agent.yaml': AGENT, 'r.scenario.yaml': scenario, 'orders.csv': 'order,amount\nA-1,20\n' }).message.split('\n');
    expect(lines.some((line) => line.includes('orders.csv:2: the row has no variable "ordr"'))).toBe(true);
    expect(lines.some((line) => line.includes('at descriptio: unknown key "descriptio" (did you mean "description"?)'))).toBe(true);
    expect(lines.some((line) => line.includes('at expect.checks[0].tool_caled: unknown check kind "tool_caled"'))).toBe(true);
  });

  it('duplicate expanded names are refused, naming both rows', () => {
    const error = loadError({
      'agent.yaml': AGENT,
      'r.scenario.yaml': `${TEMPLATE}\ndataset: orders.csv\n`,
      'orders.csv': 'order,amount\nA-1,20\nA-2,5\nA-1,30\n',
    });
    expect(error.message).toMatch(/dataset rows orders\.csv:2 and orders\.csv:4 both give the scenario name "refund A-1"/);
    expect(error.path).toBe('name');
  });

  it('malformed CSV and JSONL lines, and an invalid expanded scenario, name the row', () => {
    const csv = loadError({ 'agent.yaml': AGENT, 'r.scenario.yaml': `${TEMPLATE}\ndataset: orders.csv\n`, 'orders.csv': 'order,amount\nA-1,20\nA-2,"5\n' });
    expect(csv.message).toMatch(/orders\.csv:3: has a quoted field that is never closed/);
    expect(csv.path).toBe('dataset');
    const jsonl = loadError({ 'agent.yaml': AGENT, 'r.scenario.yaml': `${TEMPLATE}\ndataset: o.jsonl\n`, 'o.jsonl': '{"order": 1, "amount": 2}\n{oops\n' });
    expect(jsonl.message).toMatch(/o\.jsonl:2:2: is not valid JSON: .*; expected one JSON object a line/);
    // Valid JSON that is no object is located at its line and column too.
    const list = loadError({ 'agent.yaml': AGENT, 'r.scenario.yaml': `${TEMPLATE}\ndataset: o.jsonl\n`, 'o.jsonl': '{"order": 1, "amount": 2}\n  [1,2]\n' });
    expect(list.message).toContain('o.jsonl:2:3: expected a JSON object of variables, got [1,2]');
    const invalid = loadError({
      'agent.yaml': AGENT,
      'r.scenario.yaml': `${TEMPLATE}\ntimeout_ms: "{{ vars.ms }}"\ndataset: [{order: a, amount: 1, ms: 100}, {order: b, amount: 1, ms: -5}]\n`,
    });
    expect(invalid.message).toMatch(/timeout_ms: expected a number >= 1.*\(dataset row dataset\[1\]\)/);
  });

  it('a row whose message text renders empty or blank is refused at the message, naming the row', () => {
    const scenario = TEMPLATE.replace('"Refund order {{vars.order}} of {{ vars.amount }} EUR"', '"{{ vars.message }}"');
    const error = loadError({
      'agent.yaml': AGENT,
      'r.scenario.yaml': `${scenario}\ndataset: o.csv\n`,
      'o.csv': 'order,amount,message\nA-1,20,refund me\nA-2,5,"  "\n',
    });
    expect(error.path).toBe('inputs.messages[0].content');
    expect(error.message).toMatch(
      /r\.scenario\.yaml:3:\d+ at inputs\.messages\[0\]\.content: the message is empty; give the message text \(dataset row o\.csv:3\)$/,
    );
  });

  it("says each row's problem at a templated field, and a problem of a field without a template once", () => {
    const scenario = TEMPLATE.replace('"Refund order {{vars.order}} of {{ vars.amount }} EUR"', '"{{ vars.message }}"');
    const blank = loadError({
      'agent.yaml': AGENT,
      'r.scenario.yaml': `${scenario}\ndataset: o.csv\n`,
      'o.csv': 'order,amount,message\nA-1,20,"  "\nA-2,5,refund me\nA-3,7," "\n',
    });
    const empty = blank.message.split('\n').filter((line) => line.includes('the message is empty'));
    expect(empty).toEqual([expect.stringMatching(/\(dataset row o\.csv:2\)$/), expect.stringMatching(/\(dataset row o\.csv:4\)$/)]);
    const typed = loadError({
      'agent.yaml': AGENT,
      'r.scenario.yaml': `${scenario}\ntimeout_ms: -5\ndataset: o.jsonl\n`,
      'o.jsonl': '{"order": "A-1", "amount": 1, "message": 1}\n{"order": "A-2", "amount": 1, "message": 1}\n',
    });
    const lines = typed.message.split('\n');
    const content = lines.filter((line) => line.includes('at inputs.messages[0].content:'));
    expect(content).toHaveLength(2);
    expect(content[0]).toContain('(dataset row o.jsonl:1)');
    expect(content[1]).toContain('(dataset row o.jsonl:2)');
    // timeout_ms is written without a template: the same for every row, said once.
    expect(lines.filter((line) => line.includes('at timeout_ms:'))).toEqual([expect.stringContaining('(dataset row o.jsonl:1)')]);
  });

  it('says why a whole-template value has the wrong type: CSV values are text, a JSONL value keeps its type', () => {
    const fromCsv = loadError({
      'agent.yaml': AGENT,
      'r.scenario.yaml': `${TEMPLATE}\ntimeout_ms: "{{ vars.ms }}"\ndataset: o.csv\n`,
      'o.csv': 'order,amount,ms\nA-1,20,500\n',
    });
    expect(fromCsv.message).toContain(
      'at timeout_ms: expected integer, got string "500" (dataset row o.csv:2); CSV values are text: a number or true/false cannot come from a CSV column; use a .jsonl or inline dataset',
    );
    const fromJsonl = loadError({
      'agent.yaml': AGENT,
      'r.scenario.yaml': TEMPLATE.replace('name: "refund {{ vars.order }}"', 'name: "{{ vars.order }}"') + '\ndataset: o.jsonl\n',
      'o.jsonl': '{"order": 1, "amount": 2}\n',
    });
    expect(fromJsonl.message).toContain(
      'at name: expected string, got number 1 (dataset row o.jsonl:1); a string that is exactly one {{ vars.NAME }} takes the value with its type; for text, write text around it ("order {{ vars.id }}")',
    );
    // Checks that word their own type error (max_turns, max_duration_ms) get the same hint.
    const budgets = loadError({
      'agent.yaml': AGENT,
      'r.scenario.yaml':
        TEMPLATE.replace('expect: {checks: [', 'expect: {checks: [{max_turns: "{{ vars.mt }}"}, {max_duration_ms: "{{ vars.ms }}"}, ') + '\ndataset: o.csv\n',
      'o.csv': 'order,amount,mt,ms\nA-1,20,4,5000\n',
    });
    const csvHint = '(dataset row o.csv:2); CSV values are text: a number or true/false cannot come from a CSV column; use a .jsonl or inline dataset';
    expect(budgets.message).toContain(`at expect.checks[0].max_turns: expected a whole number of model calls (e.g. max_turns: 4), got string "4" ${csvHint}`);
    expect(budgets.message).toContain(
      `at expect.checks[1].max_duration_ms: expected a number of milliseconds (e.g. max_duration_ms: 5000), got string "5000" ${csvHint}`,
    );
    // A value of the right kind but out of range gets no hint: the rule is not the cause.
    const range = loadError({ 'agent.yaml': AGENT, 'r.scenario.yaml': `${TEMPLATE}\ntimeout_ms: "{{ vars.ms }}"\ndataset: [{order: a, amount: 1, ms: -5}]\n` });
    expect(range.message).not.toMatch(/CSV values|takes the value with its type/);
  });

  it('reads each JSONL line as strictly as a .json file: a key twice and a number that would be rounded are refused at FILE:LINE:COL, every line in one pass', () => {
    const error = loadError({
      'agent.yaml': AGENT,
      'r.scenario.yaml': `${TEMPLATE}\ndataset: o.jsonl\n`,
      'o.jsonl': [
        '{"order": "1", "amount": 2, "order": "2"}',
        '  {"order": "3", "amount": 12345678901234567890}',
        '{"order": "4", "amount": 1e-400}',
        '{"order": "5", "amount": 5}',
        '',
      ].join('\n'),
    });
    const messages = (error instanceof ConfigErrors ? error.errors : [error]).map((problem) => [problem.path, problem.expected]);
    expect(messages).toEqual([
      ['dataset', 'o.jsonl:1:29: is not valid strict JSON: the key "order" appears twice in one object (JSON.parse would keep the last silently); remove one'],
      ['dataset', 'o.jsonl:2:28: number 12345678901234567890 is beyond 2^53 (9007199254740991) and would be rounded; write a large id as a string'],
      ['dataset', 'o.jsonl:3:26: number 1e-400 is too small to be represented (it would be read as 0)'],
    ]);
  });

  it('a dataset that is neither a file nor a list of rows says what it got', () => {
    const expected = 'expected a .csv or .jsonl file (relative to the scenario file) or a non-empty list of rows, got';
    const number = loadError({ 'agent.yaml': AGENT, 'r.scenario.yaml': `${TEMPLATE}\ndataset: 5\n` });
    expect([number.path, number.expected]).toEqual(['dataset', `${expected} number 5`]);
    expect(loadError({ 'agent.yaml': AGENT, 'r.scenario.yaml': `${TEMPLATE}\ndataset: []\n` }).expected).toBe(`${expected} an empty list`);
  });

  it('a missing dataset file, an unknown extension, and {{ vars }} without a dataset are load errors', () => {
    expect(loadError({ 'agent.yaml': AGENT, 'r.scenario.yaml': `${TEMPLATE}\ndataset: nope.csv\n` }).message).toMatch(/dataset file not found: .*nope\.csv/);
    expect(loadError({ 'agent.yaml': AGENT, 'r.scenario.yaml': `${TEMPLATE}\ndataset: rows.txt\n`, 'rows.txt': 'x' }).message).toMatch(
      /neither \.csv nor \.jsonl/,
    );
    const noDataset = loadError({ 'agent.yaml': AGENT, 'r.scenario.yaml': TEMPLATE });
    expect(noDataset.path).toBe('name');
    expect(noDataset.message).toMatch(/uses \{\{ vars\.\* \}\}, but the scenario has no dataset/);
  });
});
