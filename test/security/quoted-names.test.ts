import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { quoteCapped, quoteJson, shownName } from '../../src/config/cap-text.js';
import { describeValue } from '../../src/config/describe-value.js';
import { didYouMean } from '../../src/config/did-you-mean.js';
import { ConfigError, ConfigErrors } from '../../src/config/errors.js';
import { unknownKeyMessage } from '../../src/config/option-keys.js';
import { loadScenarioFile } from '../../src/runner/scenario/load-scenario-file.js';
import { testRun } from '../../src/runner/test-run.js';
import { configErrorOf } from '../helpers/config-error.js';
import { tempDir } from '../helpers/temp-dir.js';

// The names and values a message quotes are JSON-quoted and cut by one function (quoteCapped), and
// a located message is escaped and cut as a whole (docs/security.md, Hostile files): what a hostile
// file or request names never reaches a terminal raw, nor runs on for pages.

const HOSTILE = '\u001b[2Jevil\u202e';
const QUOTED = '"\\u001b[2Jevil\\u202e"';
const LONG = 'a'.repeat(5000);
const LONG_QUOTED = `"${'a'.repeat(200)}"... (4800 more characters)`;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const RAW = /[\u001b\u202e]/;

const AGENT = `id: bot
agent:
  name: Bot
  tools:
    - {name: lookup_order, parameters: {type: object, properties: {order_id: {type: string}}}, returns: {ok: true}}
    - {name: create_refund, permission: ask, parameters: {type: object, properties: {order_id: {type: string}}}, returns: {ok: true}}
`;
const HEAD = 'name: s\nagent: agent.yaml\ninputs: {messages: [{role: user, content: go}]}\n';

function scenarioError(body: string): ConfigError {
  const dir = tempDir({ 'agent.yaml': AGENT, 'a.scenario.yaml': `${HEAD}${body}` });
  return configErrorOf(() => loadScenarioFile({ file: join(dir, 'a.scenario.yaml'), root: dir }, { agents: new Map() }));
}

/** `text` as a YAML double-quoted scalar (JSON's escapes are YAML's). */
const yaml = (text: string) => JSON.stringify(text);

describe('quoting what a message names', () => {
  it('quoteCapped, quoteJson and shownName escape every unprintable character and cut at 200 with the count', () => {
    expect(quoteCapped(HOSTILE)).toBe(QUOTED);
    expect(quoteCapped(LONG)).toBe(LONG_QUOTED);
    expect(quoteJson(HOSTILE)).toBe(QUOTED);
    expect(quoteJson({ k: HOSTILE })).toBe('{"k":"\\u001b[2Jevil\\u202e"}');
    expect(quoteJson(['x'.repeat(300)])).toBe(`["${'x'.repeat(198)}... (104 more characters)`);
    expect(shownName('lookup_order')).toBe('lookup_order');
    expect(shownName(HOSTILE)).toBe(QUOTED);
    expect(shownName(LONG)).toBe(LONG_QUOTED);
    // A cut never splits a surrogate pair: the emoji is left out whole, and counted.
    expect(quoteCapped(`${'x'.repeat(199)}😀😀`)).toBe(`"${'x'.repeat(199)}"... (4 more characters)`);
  });

  it('did-you-mean hints, unknown keys and "got string" clauses quote alike', () => {
    expect(didYouMean('lookup_ordr', ['lookup_order'])).toBe('; did you mean "lookup_order"?');
    expect(unknownKeyMessage(HOSTILE, ['agent', 'inputs'])).toBe(`unknown key ${QUOTED}; expected one of: agent, inputs`);
    expect(unknownKeyMessage(LONG, ['agent'])).toBe(`unknown key ${LONG_QUOTED}; expected one of: agent`);
    expect(describeValue(HOSTILE)).toBe(`string ${QUOTED}`);
    expect(describeValue(LONG)).toBe(`string ${LONG_QUOTED}`);
  });
});

describe('a located message is escaped and cut as a whole', () => {
  it('at 2,000 characters, counting what is left of the whole message', () => {
    const expected = `names ${'b'.repeat(3000)}`;
    const error = new ConfigError({ file: 'x.yaml', line: 3, column: 5, path: 'expect.terminal_tool' }, expected);
    const whole = `x.yaml:3:5 at expect.terminal_tool: ${expected}`;
    expect(error.message).toBe(`${whole.slice(0, 2000)}... (${whole.length - 2000} more characters)`);
    expect(error.expected).toBe(expected);
    expect(new ConfigError({ file: 'x.yaml' }, 'short').message).toBe('x.yaml: short');
  });

  it('a control character left unquoted (a file name, an unquoted word) is escaped; line breaks stay', () => {
    const error = new ConfigError({ file: `evil${HOSTILE}.yaml`, line: 1 }, `bad ${HOSTILE}\nsecond line\tend`);
    expect(error.message).toBe('evil\\u001b[2Jevil\\u202e.yaml:1: bad \\u001b[2Jevil\\u202e\nsecond line\tend');
    const several = new ConfigErrors([error, new ConfigError({ file: 'b.yaml' }, HOSTILE)]);
    expect(several.message).not.toMatch(RAW);
  });
});

describe('the name checks of a scenario quote the names they refuse', () => {
  it('terminal_tool: escaped, and cut at 200 characters with the count', () => {
    const hostile = scenarioError(`expect: {terminal_tool: ${yaml(HOSTILE)}}\n`);
    expect(hostile.expected).toBe(`expect.terminal_tool names no tool of the agent: ${QUOTED}; expected one of: lookup_order, create_refund`);
    const long = scenarioError(`expect: {terminal_tool: ${LONG}}\n`);
    expect(long.expected).toBe(`expect.terminal_tool names no tool of the agent: ${LONG_QUOTED}; expected one of: lookup_order, create_refund`);
  });

  it('a script call, a check tool and an argument name', () => {
    const script = scenarioError(`model: {script: [{tool_calls: [{name: ${yaml(HOSTILE)}}]}, {text: ok}]}\n`);
    expect(script.expected).toMatch(new RegExp(`^the script calls ${escapeRegex(QUOTED)}, which the agent does not offer the model;`));
    const check = scenarioError(`expect: {checks: [{tool_called: {tool: ${LONG}}}]}\n`);
    expect(check.expected).toContain(`names no tool of the agent: ${LONG_QUOTED};`);
    const argument = scenarioError(`expect: {checks: [{tool_called: {tool: lookup_order, args: {${yaml(HOSTILE)}: 1}}}]}\n`);
    expect(argument.expected).toMatch(new RegExp(`^argument ${escapeRegex(QUOTED)} is not a parameter of lookup_order;`));
  });

  it('an approvals.tools key and its answer', () => {
    const key = scenarioError(`approvals: {tools: {${yaml(HOSTILE)}: approve}}\n`);
    expect(key.path).toBe('approvals.tools["\\u001b[2Jevil\\u202e"]');
    expect(key.expected).toBe(`${QUOTED} names no tool of the agent; expected one of: lookup_order, create_refund`);
    const long = scenarioError(`approvals: {tools: {${LONG}: approve}}\n`);
    expect(long.expected).toBe(`${LONG_QUOTED} names no tool of the agent; expected one of: lookup_order, create_refund`);
    expect(long.message.length).toBeLessThan(2000);
    const answer = scenarioError(`approvals: {tools: {create_refund: ${yaml(`${HOSTILE}${LONG}`)}}}\n`);
    expect(answer.expected).toBe(
      `a tool's approval gate takes "approve", "deny", "reject"; got "\\u001b[2Jevil\\u202e${'a'.repeat(191)}"... (4809 more characters)`,
    );
  });
});

describe("the library's testRun says the same", () => {
  it('an unknown request key is quoted in the message and the path; a long one is cut', async () => {
    const dir = tempDir({ 'agent.yaml': AGENT });
    const request = { agent: join(dir, 'agent.yaml'), inputs: { messages: [{ role: 'user' as const, content: 'hi' }] } };
    const hostile = await refusalOf(testRun({ ...request, [HOSTILE]: 1 } as never));
    expect(hostile.message).toMatch(new RegExp(`^testRun at \\[${escapeRegex(QUOTED)}\\]: unknown key ${escapeRegex(QUOTED)}; expected one of: agent, `));
    const terminal = await refusalOf(testRun({ ...request, expectations: { terminal_tool: LONG } }));
    expect(terminal.message).toBe(
      `testRun at expectations.terminal_tool: expectations.terminal_tool names no tool of the agent: ${LONG_QUOTED}; expected one of: lookup_order, create_refund`,
    );
    const workspace = await refusalOf(testRun({ ...request, workspace: join(dir, `${HOSTILE}${LONG}`) }));
    expect(workspace.message).toMatch(/^testRun at workspace: workspace folder not found: ".*\\u001b\[2Jevil\\u202ea*"\.\.\. \(\d+ more characters\)$/);
  });
});

/** The ConfigError `run` rejects with (it must). */
async function refusalOf(run: Promise<unknown>): Promise<ConfigError> {
  const error = await run.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error, 'expected a ConfigError').toBeInstanceOf(ConfigError);
  return error as ConfigError;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
