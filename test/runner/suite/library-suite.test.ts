import { writeFileSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/errors.js';
import { loadSuite } from '../../../src/runner/suite/load-suite.js';
import { loadSuiteConfig } from '../../../src/runner/suite/suite-config.js';
import { runSuite } from '../../../src/runner/suite/run-suite.js';
import { failedRuns } from '../../../src/runner/suite/only-failed.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { configErrorOf } from '../../helpers/config-error.js';

const AGENT = 'id: lib-bot\nagent:\n  name: Lib bot\n  tools: [{name: finish, description: Finish., parameters: {type: object}, returns: {done: true}}]\n';
const SCENARIO =
  'name: one\nagent: agent.yaml\ninputs: {messages: [{role: user, content: go}]}\nmodel: {script: [{tool_calls: [{name: finish, args: {}}]}, {text: done}]}\nexpect: {terminal_tool: finish}\n';

describe('the library suite entry points', () => {
  it('loadSuite without a config runs the paths as `agentcheck run PATHS` does', async () => {
    const dir = tempDir({ 'agent.yaml': AGENT, 'one.scenario.yaml': SCENARIO });
    const plan = loadSuite({ paths: [dir] }, dir);
    expect(plan.runs).toHaveLength(1);
    const report = await runSuite(plan, { concurrency: 1 });
    expect(report.summary).toMatchObject({ total: 1, passed: 1 });
  });

  it("runSuite records the plan's own paths, grep and tags in report.suite, unless its selection option says otherwise", async () => {
    const dir = tempDir({ 'agent.yaml': AGENT, 'one.scenario.yaml': SCENARIO, 'two.scenario.yaml': SCENARIO.replace('name: one', 'name: two\ntags: [smoke]') });
    const report = await runSuite(loadSuite({ paths: ['.'], grep: 'two', tags: ['smoke'] }, dir), { concurrency: 1 });
    expect(report.summary.total).toBe(1);
    expect(report.suite).toMatchObject({ paths: ['.'], grep: 'two', tags: ['smoke'], config: null, shard: null });
    const given = await runSuite(loadSuite({ paths: ['.'], grep: 'two' }, dir), { concurrency: 1, selection: { paths: ['cases'], grep: 'tw' } });
    expect(given.suite).toMatchObject({ paths: ['cases'], grep: 'tw' });
  });

  it('runSuite refuses a concurrency that would run nothing, instead of marking every row not_run', async () => {
    const dir = tempDir({ 'agent.yaml': AGENT, 'one.scenario.yaml': SCENARIO });
    const plan = loadSuite({ paths: [dir] }, dir);
    for (const concurrency of [Number.NaN, 0, -1, 1.5]) {
      await expect(runSuite(plan, { concurrency })).rejects.toThrow(ConfigError);
    }
    await expect(runSuite(plan, { concurrency: 0 })).rejects.toThrow('runSuite options at concurrency: expected a whole number >= 1, got number 0');
  });

  it('runSuite gives the event loop a turn between scripted runs, so an abort from a signal or timer lands mid-suite', async () => {
    // Scripted runs settle in microtasks: a suite that never yields would let a SIGINT handler
    // (or this immediate) run only after the last row. The loop turns after 512 runs at most.
    const scenarios = Array.from({ length: 1200 }, (_, i) => `  - name: s${i}`).join('\n');
    const dir = tempDir({
      'agent.yaml': AGENT,
      'many.scenarios.yaml': `defaults:\n  agent: agent.yaml\n  inputs: {messages: [{role: user, content: go}]}\n  model: {script: [{tool_calls: [{name: finish, args: {}}]}, {text: done}]}\n  expect: {terminal_tool: finish}\nscenarios:\n${scenarios}\n`,
    });
    const plan = loadSuite({ paths: [dir] }, dir);
    const controller = new AbortController();
    setImmediate(() => controller.abort());
    const report = await runSuite(plan, { concurrency: 4, signal: controller.signal });
    expect(report.interrupted).toBe(true);
    expect(report.scenarios).toHaveLength(1200);
    expect(report.summary.not_run).toBeGreaterThan(600);
    expect(report.summary.passed + report.summary.not_run).toBe(1200);
  });

  it('a scenario marked skip is skipped, not not_run, when an interrupt comes before its turn; --only-failed then leaves it out', async () => {
    const scenarios = ['  - name: c\n    skip: not today', '  - name: a', '  - name: z\n    skip: not today'].join('\n');
    const dir = tempDir({
      'agent.yaml': AGENT,
      'k.scenarios.yaml': `defaults:\n  agent: agent.yaml\n  inputs: {messages: [{role: user, content: go}]}\n  model: {script: [{tool_calls: [{name: finish, args: {}}]}, {text: done}]}\n  expect: {terminal_tool: finish}\nscenarios:\n${scenarios}\n`,
    });
    const controller = new AbortController();
    controller.abort();
    const report = await runSuite(loadSuite({ paths: [dir], repeat: 2 }, dir), { concurrency: 1, signal: controller.signal });
    expect(report.interrupted).toBe(true);
    expect(report.scenarios.map((row) => `${row.name}:${row.status}`)).toEqual(['c:skipped', 'c:skipped', 'a:not_run', 'a:not_run', 'z:skipped', 'z:skipped']);
    expect(report.scenarios[4].reason).toBe('skipped (not today)');
    expect(report.summary).toMatchObject({ not_run: 2, skipped: 4 });
    writeFileSync(join(dir, 'report.json'), JSON.stringify(report));
    expect([...failedRuns('report.json', dir).keys()]).toEqual(['k.scenarios.yaml#a']);
  });

  it('--only-failed records only the variants that have a pair to rerun, the same in every shard', async () => {
    const scenario = (name: string) => SCENARIO.replace('name: one', `name: ${name}`);
    const dir = tempDir({
      'agent.yaml': AGENT,
      'a.scenario.yaml': scenario('a'),
      'b.scenario.yaml': scenario('b'),
      'agentcheck.config.yaml': 'variants:\n  lean: {set: {agent: {instructions: lean}}}\n  mid: {set: {agent: {instructions: mid}}}\n',
    });
    const config = loadSuiteConfig(undefined, dir);
    const only = new Map([['a.scenario.yaml#a', new Set(['base', 'lean', 'gone'])]]);
    const plan = loadSuite({ paths: [dir], config, only }, dir);
    expect(plan.variants).toEqual(['base', 'lean']);
    const report = await runSuite(plan, { concurrency: 1 });
    expect(report.suite.variants).toEqual(['base', 'lean']);
    expect(Object.keys(report.suite.variant_deltas ?? {})).toEqual(['lean']);
    expect(Object.keys(report.stats!.variants)).toEqual(['base', 'lean']);
    // Shard 2 holds only scenario b, which has nothing to rerun: it still records the suite's variants, so shards merge.
    const empty = loadSuite({ paths: [dir], config, only, shard: { index: 2, total: 2 } }, dir);
    expect([empty.runs.length, empty.variants]).toEqual([0, ['base', 'lean']]);
  });

  it("runSuite: a custom check calling process.exit() errors its row, as under `agentcheck run`, and never ends the caller's process", async () => {
    const dir = tempDir({
      'agent.yaml': AGENT,
      'exit.mjs': 'export default function () { process.exit(0); }\n',
      'one.scenario.yaml': SCENARIO.replace('expect: {terminal_tool: finish}', 'expect: {terminal_tool: finish, checks: [{custom: {module: ./exit.mjs}}]}'),
    });
    const exit = process.exit;
    const report = await runSuite(loadSuite({ paths: [dir] }, dir), { concurrency: 1 });
    expect(process.exit).toBe(exit);
    const [row] = report.scenarios;
    expect(row.status).toBe('error');
    expect(row.error?.type).toBe('CHECK_ERROR');
    expect(row.error?.message).toContain('process.exit(0) was called during the run; a custom check may not end the agentcheck process');
  });

  it('loadSuiteConfig and loadSuite refuse an empty path (an unset variable), never read as no config or the current folder', () => {
    expect(() => loadSuiteConfig('')).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID', message: 'loadSuiteConfig: expected a file path, got an empty string' }),
    );
    expect(() => loadSuite({ paths: ['.'] }, '')).toThrow('loadSuite at cwd: expected a folder path, got an empty string');
    expect(() => loadSuite({ paths: ['.'] }, '')).toThrow(ConfigError);
  });

  it('loadSuite reads a relative cwd as its absolute form, also with no paths and no config (the folder is then searched)', () => {
    const dir = tempDir({ 'cases/conc/agent.yaml': AGENT, 'cases/conc/one.scenario.yaml': SCENARIO });
    const absolute = join(dir, 'cases/conc');
    const given = relative(process.cwd(), absolute);
    expect(isAbsolute(given)).toBe(false);
    const planned = (cwd: string, paths: string[]) => {
      const plan = loadSuite({ paths }, cwd);
      return { ids: plan.runs.map((run) => `${run.scenario.id} [${run.variant}]`), cwd: plan.selection?.cwd };
    };
    const expected = { ids: ['one.scenario.yaml#one [base]'], cwd: absolute };
    expect(planned(absolute, [])).toEqual(expected);
    expect(planned(given, [])).toEqual(expected);
    expect(planned(given, ['.'])).toEqual(expected);
  });

  it('runSuite refuses a misspelt option instead of running with its default', async () => {
    const dir = tempDir({ 'agent.yaml': AGENT, 'one.scenario.yaml': SCENARIO });
    const plan = loadSuite({ paths: [dir] }, dir);
    const run = runSuite(plan, { concurency: 1, selection: { tgas: ['x'] } } as never);
    await expect(run).rejects.toThrow(ConfigError);
    await expect(run).rejects.toThrow(
      /runSuite options at concurency: unknown key "concurency" \(did you mean "concurrency"\?\); expected one of: concurrency/,
    );
    await expect(run).rejects.toThrow(/runSuite options at selection\.tgas: unknown key "tgas"/);
  });

  it('runSuite refuses a missing plan, null options and every option of the wrong type or value, before any run', async () => {
    const dir = tempDir({ 'agent.yaml': AGENT, 'one.scenario.yaml': SCENARIO });
    const plan = () => loadSuite({ paths: [dir] }, dir);
    const refusal = (call: () => Promise<unknown>) =>
      call().then(
        () => 'ran',
        (error: unknown) => (error instanceof ConfigError ? error.message : `not a ConfigError: ${String(error)}`),
      );
    expect(await refusal(() => runSuite(undefined as never))).toBe('runSuite at plan: expected a suite plan (what loadSuite(selection) returns), got nothing');
    expect(await refusal(() => runSuite({} as never))).toBe('runSuite at plan: expected a suite plan (what loadSuite(selection) returns), got an object');
    expect(await refusal(() => runSuite(plan(), null as never))).toBe('runSuite at options: expected an options object, got null');
    const wrong: [Record<string, unknown>, string][] = [
      [{ timeoutMs: -5 }, 'runSuite options at timeoutMs: expected a whole number of ms from 1 to 2147483647, got number -5'],
      [
        { cassettes: 'x' },
        'runSuite options at cassettes: expected cassette settings {mode: record | replay | auto | off, dir: an absolute folder}, got string "x"',
      ],
      // A relative folder would be read from wherever the process happens to be.
      [
        { cassettes: { mode: 'record', dir: 'rel' } },
        'runSuite options at cassettes: expected cassette settings {mode: record | replay | auto | off, dir: an absolute folder}, got an object',
      ],
      [{ releasePlan: 'yes' }, 'runSuite options at releasePlan: expected true or false, got string "yes"'],
      [{ env: 'x' }, 'runSuite options at env: expected an environment {NAME: value}, got string "x"'],
      [{ skills: 'x' }, 'runSuite options at skills: expected skill options {forced?, overlay?, delivery?}, got string "x"'],
      [{ skills: { delivery: 'later' } }, 'runSuite options at skills.delivery'],
      [{ hurry: 'x' }, 'runSuite options at hurry: expected an AbortSignal, got string "x"'],
      [{ signal: 'x' }, 'runSuite options at signal: expected an AbortSignal, got string "x"'],
      // An object with close() alone failed in the run ("pool.open is not a function").
      [{ mcpServers: { close: () => undefined } }, 'runSuite options at mcpServers: expected an McpServerPool, got an object'],
      [{ mcpServers: 'x' }, 'runSuite options at mcpServers: expected an McpServerPool, got string "x"'],
      [{ keepRow: 'x' }, 'runSuite options at keepRow: expected a function (row, index) returning the row to keep, got string "x"'],
      [{ onRowDone: 'x' }, 'runSuite options at onRowDone: expected a function (row, done, total), got string "x"'],
      [
        { selection: 'x' },
        'runSuite options at selection: expected the selection to record {paths?, config?, shard?, grep?, tags?, overlay?, cwd?}, got string "x"',
      ],
      [{ selection: { tags: 5 } }, 'runSuite options at selection.tags: expected a list of tags (strings), got number 5'],
    ];
    for (const [options, message] of wrong) expect(await refusal(() => runSuite(plan(), options as never))).toContain(message);
    // The plan is untouched by a refused releasePlan.
    const kept = plan();
    await refusal(() => runSuite(kept, { releasePlan: 'yes' } as never));
    expect(kept.scenarios).toHaveLength(1);
  });

  it('loadSuite refuses a shard with a key other than index and total, rather than ignoring it', () => {
    expect(configErrorOf(() => loadSuite({ paths: ['.'], shard: { index: 1, total: 2, x: 1 } } as never)).message).toBe(
      'loadSuite at shard: expected {index, total} with 1 <= index <= total <= 10000, got an object',
    );
  });

  it('loadSuite refuses a key named like an Object.prototype member as unknown, rather than ignoring it', () => {
    for (const name of ['constructor', 'toString']) {
      expect(configErrorOf(() => loadSuite({ paths: ['.'], [name]: 1 } as never)).message).toContain(`loadSuite at ${name}: unknown key "${name}"`);
    }
  });

  it('loadSuite names the key a misspelt one is near', () => {
    expect(configErrorOf(() => loadSuite({ paths: ['.'], varient: ['x'] } as never)).message).toContain(
      'loadSuite at varient: unknown key "varient" (did you mean "variants"?)',
    );
  });

  it("loadSuite's planning errors name its own fields (variants, repeat, maxRuns), not the CLI's flags", () => {
    const dir = tempDir({ 'agent.yaml': AGENT, 'one.scenario.yaml': SCENARIO, 'two.scenario.yaml': SCENARIO.replace('name: one', 'name: two') });
    const variant = configErrorOf(() => loadSuite({ paths: [dir], variants: ['fast'] }, dir));
    expect(variant.message).toBe('loadSuite at variants: unknown variant "fast"; expected one of: base');
    // Every unknown name at once, each once.
    expect(configErrorOf(() => loadSuite({ paths: [dir], variants: ['fast', 'base', 'slow', 'fast'] }, dir)).message).toBe(
      'loadSuite at variants: unknown variants "fast", "slow"; expected one of: base',
    );
    expect(configErrorOf(() => loadSuite({ paths: [dir], maxRuns: 1 }, dir)).message).toBe(
      'loadSuite at maxRuns: the suite plans 2 runs (2 scenarios x 1 variant x 1 repeat), more than the limit of 1; select fewer scenarios, or raise the limit with maxRuns',
    );
    const repeated = configErrorOf(() => loadSuite({ paths: [dir], repeat: 3, maxRuns: 5 }, dir));
    expect(repeated.message).toMatch(/^loadSuite at repeat: the suite plans 6 runs .* or raise the limit with maxRuns$/);
    expect(repeated.code).toBe('TOO_MANY_RUNS');
  });

  it('runSuite with releasePlan lets each run go once its row exists, and reports the same rows; without it the plan is kept', async () => {
    const scenario = (name: string) => SCENARIO.replace('name: one', `name: ${name}`);
    const dir = tempDir({ 'agent.yaml': AGENT, 'a.scenario.yaml': scenario('a'), 'b.scenario.yaml': scenario('b'), 'c.scenario.yaml': scenario('c') });
    const kept = loadSuite({ paths: [dir] }, dir);
    const keptReport = await runSuite(kept, { concurrency: 2 });
    expect(kept.runs.every((run) => run !== undefined)).toBe(true);
    expect(kept.scenarios).toHaveLength(3);
    const released = loadSuite({ paths: [dir] }, dir);
    const releasedReport = await runSuite(released, { concurrency: 2, releasePlan: true });
    expect(released.runs).toEqual([undefined, undefined, undefined]);
    expect(released.scenarios).toHaveLength(0);
    const shape = (rows: typeof keptReport.scenarios) => rows.map((row) => [row.id, row.status, row.checks.length, row.transcript?.length]);
    expect(shape(releasedReport.scenarios)).toEqual(shape(keptReport.scenarios));
    expect(releasedReport.summary).toEqual(keptReport.summary);
  });

  it('runSuite refuses a plan an earlier run released, saying so, never a TypeError from a run let go', async () => {
    const dir = tempDir({ 'agent.yaml': AGENT, 'one.scenario.yaml': SCENARIO });
    const released = 'runSuite at plan: the plan was released: an earlier runSuite(plan, {releasePlan: true}) or {releaseRuns: true} let its runs go';
    for (const option of ['releasePlan', 'releaseRuns']) {
      const plan = loadSuite({ paths: [dir], repeat: 2 }, dir);
      await runSuite(plan, { concurrency: 1, [option]: true });
      await expect(runSuite(plan, { concurrency: 1 })).rejects.toThrow(
        expect.objectContaining({ code: 'CONFIG_INVALID', message: expect.stringContaining(released) }),
      );
    }
    // Runs that are not loadSuite's are named too.
    const plan = loadSuite({ paths: [dir] }, dir);
    await expect(runSuite({ ...plan, runs: [5] } as never)).rejects.toThrow(
      'runSuite at plan.runs: expected the planned runs loadSuite(selection) made, each {scenario, variant, revision, repeat}',
    );
  });

  it('runSuite refuses a keepRow that returns no row or throws, naming keepRow and the row, and starts no run after it', async () => {
    const scenario = (name: string) => SCENARIO.replace('name: one', `name: ${name}`);
    const dir = tempDir({ 'agent.yaml': AGENT, 'a.scenario.yaml': scenario('a'), 'b.scenario.yaml': scenario('b'), 'c.scenario.yaml': scenario('c') });
    let calls = 0;
    const none = runSuite(loadSuite({ paths: [dir] }, dir), {
      concurrency: 1,
      keepRow: () => {
        calls++;
        return undefined as never;
      },
    });
    await expect(none).rejects.toThrow(
      expect.objectContaining({
        code: 'CONFIG_INVALID',
        message:
          'runSuite options at keepRow: expected a function (row, index) returning the row to keep (the row itself, or a row in its place with its id, variant, repeat and a status: pass, fail, error, not_run, skipped), but for row 0 (a.scenario.yaml#a [base] #0) it returned nothing',
      }),
    );
    expect(calls).toBe(1);
    await expect(runSuite(loadSuite({ paths: [dir] }, dir), { keepRow: (row) => ({ ...row, status: 'passed' }) as never })).rejects.toThrow(
      /at keepRow: .* but for row \d \([abc]\.scenario\.yaml#[abc] \[base\] #0\) it returned a row with status string "passed"/,
    );
    // Another row's place: the report would list the wrong id, variant or repeat.
    await expect(runSuite(loadSuite({ paths: [dir] }, dir), { keepRow: (row) => ({ ...row, id: 'x', repeat: 99 }) })).rejects.toThrow(
      /for row \d \([abc]\.scenario\.yaml#[abc] \[base\] #0\) it returned a row with id string "x", not the row's string "[abc]\.scenario\.yaml#[abc]"/,
    );
    await expect(runSuite(loadSuite({ paths: [dir] }, dir), { keepRow: (row) => Promise.resolve(row) as never })).rejects.toThrow(
      'it returned a Promise (keepRow runs synchronously: return the row itself)',
    );
    await expect(
      runSuite(loadSuite({ paths: [dir] }, dir), {
        keepRow: () => {
          throw new Error('disk full');
        },
      }),
    ).rejects.toThrow('disk full');
    // A row in the row's place is kept.
    const report = await runSuite(loadSuite({ paths: [dir] }, dir), { keepRow: (row) => ({ ...row, transcript: undefined }) });
    expect(report.summary).toMatchObject({ total: 3, passed: 3 });
  });

  it('runSuite with releaseRuns lets each run go once its row exists and keeps the scenarios list', async () => {
    const scenario = (name: string) => SCENARIO.replace('name: one', `name: ${name}`);
    const dir = tempDir({ 'agent.yaml': AGENT, 'a.scenario.yaml': scenario('a'), 'b.scenario.yaml': scenario('b') });
    const plan = loadSuite({ paths: [dir], repeat: 2 }, dir);
    const report = await runSuite(plan, { concurrency: 2, releaseRuns: true });
    expect(plan.runs).toEqual([undefined, undefined, undefined, undefined]);
    expect(plan.scenarios).toHaveLength(2);
    expect(report.summary).toMatchObject({ total: 4, passed: 4 });
  });

  it('records what each variant changes in suite.variant_deltas (base and unselected variants left out)', async () => {
    const dir = tempDir({
      'agent.yaml': AGENT,
      'one.scenario.yaml': SCENARIO,
      'agentcheck.config.yaml': 'variants:\n  short: {set: {agent: {max_turns: 2}}}\n  other: {set: {agent: {max_turns: 3}}}\n',
    });
    const config = loadSuiteConfig(join(dir, 'agentcheck.config.yaml'), dir);
    const all = await runSuite(loadSuite({ paths: [dir], config }, dir), { concurrency: 1 });
    expect(all.suite.variant_deltas).toEqual({ short: { set: { agent: { max_turns: 2 } } }, other: { set: { agent: { max_turns: 3 } } } });
    const one = await runSuite(loadSuite({ paths: [dir], config, variants: ['base', 'short'] }, dir), { concurrency: 1 });
    expect(one.suite.variant_deltas).toEqual({ short: { set: { agent: { max_turns: 2 } } } });
    const base = await runSuite(loadSuite({ paths: [dir] }, dir), { concurrency: 1 });
    expect(base.suite).not.toHaveProperty('variant_deltas');
  });

  it('loadSuite refuses a selection that is not one, naming every wrong field, as the CLI refuses bad flags', () => {
    const dir = tempDir({ 'agent.yaml': AGENT, 'one.scenario.yaml': SCENARIO });
    expect(() => loadSuite(undefined as never, dir)).toThrow(/loadSuite: expected a selection \{paths/);
    expect(() => loadSuite({} as never, dir)).toThrow('missing required key "paths"');
    const error = configErrorOf(() =>
      loadSuite({ paths: dir as never, repeat: 0, shard: { index: 3, total: 2 }, tags: 'smoke' as never, verbose: true } as never, dir),
    );
    const message = error.message;
    expect(message).toContain('loadSuite at paths: expected scenario files or folders (a list of strings), got string');
    expect(message).toContain('loadSuite at repeat: expected a whole number >= 1, got number 0');
    expect(message).toContain('loadSuite at shard: expected {index, total} with 1 <= index <= total <= 10000');
    expect(message).toContain('loadSuite at tags: expected tags (a list of strings)');
    expect(message).toContain('loadSuite at verbose: unknown key "verbose"');
    // An empty path (an unset variable) is refused, not read as the current folder.
    expect(() => loadSuite({ paths: [join(dir, 'one.scenario.yaml'), ''] }, dir)).toThrow(
      'loadSuite at paths: expected scenario files or folders, got an empty string at index 1',
    );
    // Empty selection values are refused as the CLI's empty flags are, never "no filter" or "none".
    const empty = configErrorOf(() => loadSuite({ paths: [dir], grep: '', tags: [''], variants: [] }, dir)).message;
    expect(empty).toContain('loadSuite at grep: expected a value, got an empty string');
    expect(empty).toContain('loadSuite at tags: expected a non-empty list of tags, got an empty string at index 0');
    expect(empty).toContain('loadSuite at variants: expected a non-empty list of variant names, got []');
    expect(() => loadSuite({ paths: [dir], tags: [] }, dir)).toThrow('loadSuite at tags: expected a non-empty list of tags, got []');
  });

  it("runs a scenario's approval for a tool one variant removes on every variant (invoke holds approvals to its own build)", async () => {
    const agent = AGENT.replace(']', ', {name: wipe, description: Wipe., parameters: {type: object}, returns: {ok: true}, permission: ask}]');
    const dir = tempDir({
      'agent.yaml': agent,
      'agentcheck.config.yaml': 'variants:\n  lean: {remove: ["agent.tools[name=wipe]"]}\n',
      'one.scenario.yaml': `${SCENARIO}approvals: {tools: {wipe: deny}}\n`,
    });
    const plan = loadSuite({ paths: [dir], config: loadSuiteConfig(join(dir, 'agentcheck.config.yaml')) }, dir);
    const report = await runSuite(plan, { concurrency: 1 });
    expect(report.scenarios.map((row) => [row.variant, row.status, row.reason])).toEqual([
      ['base', 'pass', ''],
      ['lean', 'pass', ''],
    ]);
  });
});
