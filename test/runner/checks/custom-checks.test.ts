import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/errors.js';
import { loadCustomChecks } from '../../../src/runner/checks/load-custom-checks.js';
import { runScenario } from '../../../src/runner/scenario/run-scenario.js';
import { loadSuite } from '../../../src/runner/suite/load-suite.js';
import { emptySuiteConfig } from '../../../src/runner/suite/suite-config.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { configErrorOf } from '../../helpers/config-error.js';

const AGENT =
  'id: bot\nagent:\n  name: Bot\n  tools: [{name: refund, parameters: {type: object, properties: {amount: {type: number}}}, returns: {ok: true}}]\n';
const scenario = (checks: string) =>
  [
    'name: s',
    'agent: agent.yaml',
    'inputs: {messages: [{role: user, content: refund me}]}',
    'model: {script: [{tool_calls: [{name: refund, args: {amount: 80}}]}, {text: done}]}',
    'expect:',
    '  checks:',
    checks,
  ].join('\n');

/** Refund amounts above params.limit fail; span ids of the calls are the evidence. */
const LIMIT_CHECK = `
export const paramsSchema = {type: 'object', required: ['limit'], properties: {limit: {type: 'number'}}, additionalProperties: false};
export default function (evidence, params) {
  const over = evidence.calls.filter((call) => call.name === 'refund' && call.args.amount > params.limit);
  return over.length
    ? {status: 'fail', reason: 'refund of ' + over[0].args.amount + ' over ' + params.limit, evidence: over.map((c) => c.span_id)}
    : {status: 'pass', reason: 'no refund over ' + params.limit};
}
`;

async function runFirst(files: Record<string, string>) {
  const dir = tempDir({ 'agent.yaml': AGENT, ...files });
  const plan = loadSuite({ paths: [join(dir, 'a.scenario.yaml')], config: emptySuiteConfig(dir) }, dir);
  await loadCustomChecks(plan.scenarios);
  const run = plan.runs[0];
  return runScenario(run.scenario, { variant: run.variant, revision: run.revision, repeat: 0 });
}

async function loadError(files: Record<string, string>): Promise<ConfigError> {
  const dir = tempDir({ 'agent.yaml': AGENT, ...files });
  let caught: unknown;
  try {
    const plan = loadSuite({ paths: [join(dir, 'a.scenario.yaml')], config: emptySuiteConfig(dir) }, dir);
    await loadCustomChecks(plan.scenarios);
  } catch (error) {
    caught = error;
  }
  return configErrorOf(() => {
    throw caught;
  });
}

describe('custom checks', () => {
  it('a module function decides pass and fail with its params, evidence ids kept', async () => {
    const files = { 'checks/limit.mjs': LIMIT_CHECK };
    const pass = await runFirst({ ...files, 'a.scenario.yaml': scenario('    - custom: {module: ./checks/limit.mjs, params: {limit: 100}}') });
    expect(pass.status).toBe('pass');
    expect(pass.checks[0]).toEqual({ id: 'custom#0', kind: 'custom', status: 'pass', reason: 'no refund over 100', evidence: [] });
    const fail = await runFirst({ ...files, 'a.scenario.yaml': scenario('    - custom: {module: ./checks/limit.mjs, params: {limit: 50}}') });
    expect(fail.status).toBe('fail');
    expect(fail.checks[0]).toMatchObject({ status: 'fail', reason: 'refund of 80 over 50' });
    expect(fail.checks[0].evidence).toHaveLength(1);
  });

  it('a named `check` export, async, also works', async () => {
    const row = await runFirst({
      'c.mjs': 'export async function check(evidence) { return {status: evidence.turns === 2 ? "pass" : "fail", reason: "turns " + evidence.turns}; }',
      'a.scenario.yaml': scenario('    - custom: {module: c.mjs}'),
    });
    expect(row.checks[0]).toMatchObject({ status: 'pass', reason: 'turns 2' });
  });

  it('a CommonJS module with module.exports = {check, paramsSchema} works, its paramsSchema read too', async () => {
    const files = {
      'c.cjs': [
        'module.exports = {',
        "  paramsSchema: {type: 'object', required: ['limit'], properties: {limit: {type: 'number'}}},",
        "  check: (evidence, params) => ({status: evidence.turns <= params.limit ? 'pass' : 'fail', reason: 'turns ' + evidence.turns}),",
        '};',
      ].join('\n'),
    };
    const row = await runFirst({ ...files, 'a.scenario.yaml': scenario('    - custom: {module: c.cjs, params: {limit: 2}}') });
    expect(row.checks[0]).toMatchObject({ status: 'pass', reason: 'turns 2' });
    const refused = await loadError({ ...files, 'a.scenario.yaml': scenario('    - custom: {module: c.cjs, params: {limit: "2"}}') });
    expect(refused.message).toContain('at expect.checks[0].custom.params: limit: expected number, got string "2" (the paramsSchema of c.cjs)');
    // module.exports = function: the function is the default export, as before.
    const plain = await runFirst({
      'f.cjs': "module.exports = () => ({status: 'pass', reason: 'ok'});",
      'a.scenario.yaml': scenario('    - custom: {module: f.cjs}'),
    });
    expect(plain.checks[0]).toMatchObject({ status: 'pass', reason: 'ok' });
  });

  it('a module that throws, rejects or returns junk is a check error with its message, never a pass', async () => {
    const row = await runFirst({
      'throws.mjs': 'export default () => { throw new Error("limit table missing"); };',
      'rejects.mjs': 'export default async () => { throw new Error("backend down"); };',
      'junk.mjs': 'export default () => ({status: "ok", reason: 1});',
      'nothing.mjs': 'export default () => undefined;',
      'object.mjs': 'export default () => { throw { code: 42 }; };',
      'bare.mjs': 'export default () => { throw new TypeError(); };',
      'a.scenario.yaml': scenario(['throws', 'rejects', 'junk', 'nothing', 'object', 'bare'].map((name) => `    - custom: {module: ./${name}.mjs}`).join('\n')),
    });
    expect(row.checks.map((check) => check.status)).toEqual(['error', 'error', 'error', 'error', 'error', 'error']);
    // A thrown non-Error, or an Error without a message, still says something.
    expect(row.checks[4].reason).toBe('./object.mjs threw: {"code":42}');
    expect(row.checks[5].reason).toBe('./bare.mjs threw: TypeError (no message)');
    expect(row.checks[0].reason).toBe('./throws.mjs threw: limit table missing');
    expect(row.checks[1].reason).toBe('./rejects.mjs threw: backend down');
    expect(row.checks[2].reason).toMatch(/^\.\/junk\.mjs returned status "ok"; expected \{status: "pass" \| "fail" \| "error"/);
    expect(row.checks[3].reason).toMatch(/returned nothing/);
    expect(row.status).toBe('error');
    expect(row.error?.type).toBe('CHECK_ERROR');
  });

  it("an answer whose getter or proxy throws when read is that check's error, naming the module; the row keeps its other checks and transcript", async () => {
    const row = await runFirst({
      'getter.mjs': "export default () => ({get status() { throw new Error('getter boom'); }, reason: 'x'});",
      'reason.mjs': "export default () => ({status: 'pass', get reason() { throw new Error('no reason'); }});",
      'items.mjs':
        "export default () => { const ids = []; Object.defineProperty(ids, 0, {get() { throw new Error('item boom'); }, enumerable: true}); ids.length = 1; return {status: 'pass', reason: 'x', evidence: ids}; };",
      'proxy.mjs': "export default () => new Proxy({}, {ownKeys() { throw new Error('keys boom'); }});",
      'a.scenario.yaml': scenario(
        [
          '    - tool_called: {tool: refund}',
          ...['getter', 'reason', 'items', 'proxy'].map((name) => `    - custom: {module: ./${name}.mjs}`),
          '    - output: {contains: done}',
        ].join('\n'),
      ),
    });
    expect(row.checks.map((check) => [check.status, check.reason])).toEqual([
      ['pass', expect.any(String)],
      ['error', `./getter.mjs threw: getter boom (reading its answer's "status")`],
      ['error', `./reason.mjs threw: no reason (reading its answer's "reason")`],
      ['error', `./items.mjs threw: item boom (reading its answer's "evidence")`],
      ['error', './proxy.mjs threw: keys boom (reading its answer)'],
      ['pass', expect.any(String)],
    ]);
    expect(row.error?.type).toBe('CHECK_ERROR');
    expect(row.error?.message).toContain('getter.mjs threw: getter boom');
    expect(row.transcript?.length).toBeGreaterThan(0);
  });

  it('an unknown key, an empty reason on a fail and an evidence id that is no span of the run are check errors', async () => {
    const row = await runFirst({
      'extra.mjs': 'export default () => ({status: "pass", reason: "x", score: 0.5});',
      'typo.mjs': 'export default (ev) => ({status: "pass", reason: "x", evidance: [ev.calls[0].span_id]});',
      'empty.mjs': 'export default () => ({status: "fail", reason: " "});',
      'fake.mjs': 'export default () => ({status: "pass", reason: "x", evidence: ["not-a-span"]});',
      'real.mjs': 'export default (ev) => ({status: "pass", reason: "x", evidence: [ev.calls[0].span_id, ev.root.span_id]});',
      'a.scenario.yaml': scenario(['extra', 'typo', 'empty', 'fake', 'real'].map((name) => `    - custom: {module: ./${name}.mjs}`).join('\n')),
    });
    const expected = '; expected {status: "pass" | "fail" | "error", reason: string, evidence?: string[]}';
    expect(row.checks.map((check) => [check.status, check.reason])).toEqual([
      ['error', `./extra.mjs returned an unknown key "score"${expected}`],
      ['error', `./typo.mjs returned an unknown key "evidance"; did you mean "evidence"?${expected}`],
      ['error', `./empty.mjs returned a fail with an empty reason (say what was expected and what was seen)${expected}`],
      ['error', `./fake.mjs returned evidence "not-a-span", which is no span id of this run${expected}`],
      ['pass', 'x'],
    ]);
    expect(row.checks[4].evidence).toHaveLength(2);
    expect(row.error?.type).toBe('CHECK_ERROR');
  });

  it('gets the workspace folder the run left, with no file check beside it', async () => {
    const row = await runFirst({
      'ws.mjs': `import { readFileSync } from 'node:fs';
import { join } from 'node:path';
export default (evidence) => evidence.workspace_dir === null
  ? {status: 'fail', reason: 'no workspace_dir'}
  : {status: 'pass', reason: readFileSync(join(evidence.workspace_dir, 'seed.txt'), 'utf8')};`,
      'ws/seed.txt': 'seeded',
      'a.scenario.yaml': `${scenario('    - custom: {module: ./ws.mjs}')}\nworkspace: ws\n`,
    });
    expect(row.checks.map((check) => [check.status, check.reason])).toEqual([['pass', 'seeded']]);
  });

  it('a module cannot change the evidence later checks see', async () => {
    const row = await runFirst({
      'mutate.mjs': 'export default (evidence) => { evidence.calls.length = 0; evidence.turns = 99; return {status: "pass", reason: "ok"}; };',
      'a.scenario.yaml': scenario('    - custom: {module: mutate.mjs}\n    - tool_called: {tool: refund}\n    - max_turns: 2'),
    });
    expect(row.checks.map((check) => check.status)).toEqual(['pass', 'pass', 'pass']);
  });

  it('params the module paramsSchema refuses are a load error located at params', async () => {
    const error = await loadError({
      'checks/limit.mjs': LIMIT_CHECK,
      'a.scenario.yaml': scenario('    - custom: {module: ./checks/limit.mjs, params: {limit: "lots"}}'),
    });
    expect(error.path).toBe('expect.checks[0].custom.params');
    expect(error.line).toBe(7);
    expect(error.message).toMatch(/limit: expected number, got string "lots" \(the paramsSchema of \.\/checks\/limit\.mjs\)/);
  });

  it('reports every problem of the params in one pass, each value once', async () => {
    const strict =
      "export const paramsSchema = {type: 'object', required: ['limit'], additionalProperties: false, properties: {limit: {type: 'number', minimum: 0}, mode: {enum: ['fast', 'slow']}}};\nexport default () => ({status: 'pass', reason: 'ok'});\n";
    const error = await loadError({
      'checks/strict.mjs': strict,
      'a.scenario.yaml': scenario('    - custom: {module: ./checks/strict.mjs, params: {limit: -1, extra: 1, mode: fsat}}'),
    });
    expect(error.message.split('\n').map((line) => line.replace(/^.* at expect\.checks\[0\]\.custom\.params: /, ''))).toEqual([
      'extra: unknown key "extra"; expected one of: limit, mode (the paramsSchema of ./checks/strict.mjs)',
      'limit: expected a number >= 0, got number -1 (the paramsSchema of ./checks/strict.mjs)',
      expect.stringMatching(/^mode: expected one of "fast" \| "slow", got string "fsat" \(did you mean "fast"\?\) \(the paramsSchema of/),
    ]);
  });

  it('omitted params a paramsSchema requires are located at params and say none were given', async () => {
    const missing = await loadError({ 'checks/limit.mjs': LIMIT_CHECK, 'a.scenario.yaml': scenario('    - custom: {module: ./checks/limit.mjs}') });
    // params has no node: the path names it (the fix is `params:`, not a key beside module), line:col the check.
    expect(missing.path).toBe('expect.checks[0].custom.params');
    expect([missing.line, missing.column]).toEqual([7, 15]);
    expect(missing.expected).toBe('missing required key "limit" (no params given, so {} was checked against the paramsSchema of ./checks/limit.mjs)');
  });

  it('an expanded dataset scenario checked alone (as the vitest integration does) still names its row', async () => {
    const dir = tempDir({
      'agent.yaml': AGENT,
      'checks/limit.mjs': LIMIT_CHECK,
      'a.scenario.yaml': scenario('    - custom: {module: ./checks/limit.mjs, params: {limit: "{{ vars.limit }}"}}').replace(
        'name: s',
        'name: "s {{ vars.limit }}"\ndataset: [{limit: 5}, {limit: five}]',
      ),
    });
    const plan = loadSuite({ paths: [join(dir, 'a.scenario.yaml')], config: emptySuiteConfig(dir) }, dir);
    await loadCustomChecks([plan.scenarios[0]]);
    const error = await loadCustomChecks([plan.scenarios[1]]).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).expected).toBe('limit: expected number, got string "five" (the paramsSchema of ./checks/limit.mjs) (dataset row dataset[1])');
  });

  it('says a paramsSchema problem at a templated param for each row that has it, and one the rows cannot change once', async () => {
    const entry = (params: string) =>
      scenario(`    - custom: {module: ./checks/limit.mjs, params: ${params}}`).replace(
        'name: s',
        'name: "s {{ vars.n }}"\ndataset: [{n: a, limit: five}, {n: b, limit: 5}, {n: c, limit: five}]',
      );
    const lines = async (params: string) => (await loadError({ 'checks/limit.mjs': LIMIT_CHECK, 'a.scenario.yaml': entry(params) })).message.split('\n');
    // Rows a and c give the same value: each is told, as two blank messages are.
    expect((await lines('{limit: "{{ vars.limit }}"}')).map((line) => /\(dataset row (.*)\)$/.exec(line)?.[1])).toEqual(['dataset[0]', 'dataset[2]']);
    // An unknown key is written as it is for every row, though its value is templated: said once.
    const unknown = await lines('{limit: 1, limt: "{{ vars.limit }}"}');
    expect(unknown).toEqual([expect.stringMatching(/limt: unknown key "limt" .*\(dataset row dataset\[0\]\)$/)]);
  });

  it('a type error at a param that is one whole template says the dataset rule behind it, as for built-in checks', async () => {
    const entry = (params: string, dataset: string) =>
      scenario(`    - custom: {module: ./checks/limit.mjs, params: ${params}}`).replace('name: s', `name: "s {{ vars.limit }}"\ndataset: ${dataset}`);
    const paramsError = async (files: Record<string, string>) => {
      const dir = tempDir({ 'agent.yaml': AGENT, 'checks/limit.mjs': LIMIT_CHECK, ...files });
      const plan = loadSuite({ paths: [join(dir, 'a.scenario.yaml')], config: emptySuiteConfig(dir) }, dir);
      const error = await loadCustomChecks(plan.scenarios).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ConfigError);
      return (error as ConfigError).expected;
    };
    // A CSV column is text: the number the schema wants cannot come from it.
    expect(await paramsError({ 'rows.csv': 'limit\n50\n', 'a.scenario.yaml': entry('{limit: "{{ vars.limit }}"}', 'rows.csv') })).toBe(
      'limit: expected number, got string "50" (the paramsSchema of ./checks/limit.mjs) (dataset row rows.csv:2); CSV values are text: a number or true/false cannot come from a CSV column; use a .jsonl or inline dataset',
    );
    // A JSONL string is a string the user wrote: no CSV rule to point at.
    expect(await paramsError({ 'rows.jsonl': '{"limit": "50"}\n', 'a.scenario.yaml': entry('{limit: "{{ vars.limit }}"}', 'rows.jsonl') })).toBe(
      'limit: expected number, got string "50" (the paramsSchema of ./checks/limit.mjs) (dataset row rows.jsonl:1)',
    );
    // Text around the template makes a string whatever the row holds: the hint would be wrong there.
    expect(await paramsError({ 'rows.csv': 'limit\n50\n', 'a.scenario.yaml': entry('{limit: "at most {{ vars.limit }}"}', 'rows.csv') })).toBe(
      'limit: expected number, got string "at most 50" (the paramsSchema of ./checks/limit.mjs) (dataset row rows.csv:2)',
    );
    // A whole template keeps an inline row's type: a number where the schema wants text says so.
    const textCheck =
      "export const paramsSchema = {type: 'object', properties: {label: {type: 'string'}}};\nexport default () => ({status: 'pass', reason: 'ok'});\n";
    const label = scenario('    - custom: {module: ./checks/label.mjs, params: {label: "{{ vars.limit }}"}}').replace(
      'name: s',
      'name: "s {{ vars.limit }}"\ndataset: [{limit: 7}]',
    );
    expect(await paramsError({ 'checks/label.mjs': textCheck, 'a.scenario.yaml': label })).toBe(
      'label: expected string, got number 7 (the paramsSchema of ./checks/label.mjs) (dataset row dataset[0]); a string that is exactly one {{ vars.NAME }} takes the value with its type; for text, write text around it ("order {{ vars.id }}")',
    );
  });

  it('a missing module, a TypeScript module and a module without a function are load errors', async () => {
    const missing = await loadError({ 'a.scenario.yaml': scenario('    - custom: {module: ./checks/nope.mjs}') });
    expect(missing.path).toBe('expect.checks[0].custom.module');
    expect(missing.line).toBe(7);
    expect(missing.message).toMatch(/custom check module not found: .*checks\/nope\.mjs/);
    const ts = await loadError({ 'c.ts': 'export default () => 1;', 'a.scenario.yaml': scenario('    - custom: {module: c.ts}') });
    expect(ts.message).toMatch(/is TypeScript, which Node cannot import without a loader; compile it to \.mjs\/\.js/);
    const noFunction = await loadError({ 'c.mjs': 'export const check = 3;', 'a.scenario.yaml': scenario('    - custom: {module: c.mjs}') });
    expect(noFunction.message).toMatch(/exports no check function/);
    const cjsNoFunction = await loadError({ 'c.cjs': 'module.exports = {chek: () => 1};', 'a.scenario.yaml': scenario('    - custom: {module: c.cjs}') });
    expect(cjsNoFunction.message).toContain(
      'c.cjs exports no check function; expected `export default function (evidence, params) {...}` or `export function check(evidence, params) {...}` (CommonJS: `module.exports = function ...` or `module.exports = {check}`)',
    );
    expect(noFunction.path).toBe('expect.checks[0].custom.module');
    const broken = await loadError({ 'c.mjs': 'export default (', 'a.scenario.yaml': scenario('    - custom: {module: c.mjs}') });
    expect(broken.message).toMatch(/could not be imported/);
    const unknownKey = await loadError({ 'c.mjs': 'export default () => 1;', 'a.scenario.yaml': scenario('    - custom: {module: c.mjs, param: {}}') });
    expect(unknownKey.message).toMatch(/unknown key "param" \(did you mean "params"\?\); expected one of: module, params/);
  });

  it('a module calling process.exit() while imported is a load error naming it, and process.exit is given back after', async () => {
    const exit = process.exit;
    const error = await loadError({ 'c.mjs': 'process.exit(4);\nexport default () => 1;', 'a.scenario.yaml': scenario('    - custom: {module: c.mjs}') });
    expect(error.path).toBe('expect.checks[0].custom.module');
    expect(error.message).toContain('custom check module c.mjs called process.exit(4) while being imported; a check module may not end the agentcheck process');
    expect(process.exit).toBe(exit);
  });

  it("lists every module's and every params' problem at once, not one per run", async () => {
    const error = await loadError({
      'checks/limit.mjs': LIMIT_CHECK,
      'checks/nofn.mjs': 'export const x = 1;\n',
      'checks/throws.mjs': 'throw new Error("boom at import");\n',
      'a.scenario.yaml': scenario(
        [
          '    - custom: {module: ./checks/limit.mjs, params: {limit: "x", extra: 1}}',
          '    - custom: {module: ./checks/nofn.mjs}',
          '    - custom: {module: ./checks/throws.mjs}',
        ].join('\n'),
      ),
    });
    const message = error.message;
    expect(message).toContain('extra');
    expect(message).toContain('limit');
    expect(message).toContain('nofn.mjs exports no check function');
    expect(message).toContain('throws.mjs could not be imported: boom at import');
  });
});
