import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, ConfigErrors, loadSuite, runLoadedScenario, runSuite } from '../../../src/index.js';
import { tempDir } from '../../helpers/temp-dir.js';

/** A build whose tool `touch` creates the file `ran` when a run calls it. */
const agent = (ran: string) =>
  `id: lib-bot\nagent:\n  name: Lib bot\n  tools:\n    - name: touch\n      parameters: {type: object}\n      command: {argv: [touch, ${JSON.stringify(ran)}]}\n`;

/** A scenario that calls `touch`, then answers, plus `extra` lines. */
const scenario = (name: string, extra = '') =>
  [
    `name: ${name}`,
    'agent: agent.yaml',
    'inputs: {messages: [{role: user, content: go}]}',
    'model: {script: [{tool_calls: [{name: touch, args: {}}]}, {text: done}]}',
    'expect: {checks: [{tool_called: {tool: touch}}]}',
    extra,
  ].join('\n');

/** A scenario whose model answers after 30 s, far past the limits below, plus `extra` lines. */
const slowScenario = (extra = '') =>
  ['name: slow', 'agent: agent.yaml', 'inputs: {messages: [{role: user, content: go}]}', 'model: {script: [{text: done, delay_ms: 30000}]}', extra].join('\n');

/** The first planned run of `file` in a project of its own. */
function plannedRun(file: string) {
  const dir = tempDir({ 's.scenario.yaml': file });
  const ran = join(dir, 'RAN');
  writeFileSync(join(dir, 'agent.yaml'), agent(ran));
  const [run] = loadSuite({ paths: ['.'] }, dir).runs;
  return { dir, ran, run };
}

describe('runLoadedScenario judges a run as runSuite does', () => {
  it("holds the run to the scenario's timeout_ms: past it the row is a TIMEOUT error keeping what ran, as in runSuite", async () => {
    const { run } = plannedRun(slowScenario('timeout_ms: 50'));
    const row = await runLoadedScenario(run.scenario, { variant: run.variant, revision: run.revision, repeat: run.repeat });
    expect(row).toMatchObject({ status: 'error', error: { type: 'TIMEOUT' } });
    expect(row.reason).toMatch(/^the run timed out after 50 ms \(the scenario's timeout_ms\)/);
    // What ran before the limit is kept.
    expect(row.transcript?.[0]).toMatchObject({ role: 'user', content: 'go' });
  });

  it('takes a timeoutMs option for a scenario without timeout_ms, as runSuite does', async () => {
    const { run } = plannedRun(slowScenario());
    const row = await runLoadedScenario(run.scenario, { variant: run.variant, revision: run.revision, repeat: run.repeat, timeoutMs: 50 });
    expect(row).toMatchObject({ status: 'error', error: { type: 'TIMEOUT' } });
    // A library caller is told of its own option, beside the CLI's flag and the config's key.
    expect(row.reason).toMatch(/^the run timed out after 50 ms \(--timeout, the config's timeout_ms or the timeoutMs option\)/);
  });

  it('gives a skip scenario its skipped row without running it, the row runSuite gives', async () => {
    const { dir, ran, run } = plannedRun(scenario('later', 'skip: not today'));
    const row = await runLoadedScenario(run.scenario, { variant: run.variant, revision: run.revision, repeat: run.repeat });
    expect(row).toMatchObject({ status: 'skipped', reason: 'skipped (not today)', test_run: null, turns: 0 });
    expect(existsSync(ran)).toBe(false);
    const [suiteRow] = (await runSuite(loadSuite({ paths: ['.'] }, dir))).scenarios;
    expect(row).toEqual(suiteRow);
  });

  it('gives a run an abort cuts short, or a signal already aborted, the not_run row runSuite gives', async () => {
    const { dir, run } = plannedRun(slowScenario());
    const options = { variant: run.variant, revision: run.revision, repeat: run.repeat };
    const controller = new AbortController();
    const cut = runLoadedScenario(run.scenario, { ...options, signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    const row = await cut;
    expect(row).toMatchObject({ status: 'not_run' });
    expect(row.reason).toMatch(/^not run to the end: the suite was interrupted/);
    // Already aborted: nothing runs, as runSuite starts nothing.
    const before = await runLoadedScenario(run.scenario, { ...options, signal: controller.signal });
    const [suiteRow] = (await runSuite(loadSuite({ paths: ['.'] }, dir), { signal: controller.signal })).scenarios;
    expect(before).toEqual(suiteRow);
    expect(before).toMatchObject({ status: 'not_run', reason: 'not run: the suite was interrupted' });
  });

  it('runs a scenario to its row otherwise', async () => {
    const { ran, run } = plannedRun(scenario('ok'));
    const row = await runLoadedScenario(run.scenario, { variant: run.variant, revision: run.revision, repeat: 2 });
    expect(row).toMatchObject({ id: 's.scenario.yaml#ok', variant: 'base', repeat: 2, status: 'pass' });
    expect(existsSync(ran)).toBe(true);
  });
});

describe('runLoadedScenario refuses wrong arguments with a ConfigError naming each, before anything runs', () => {
  /** The messages of the ConfigError(s) the call throws. */
  async function refusal(call: () => Promise<unknown>): Promise<string[]> {
    const error = await call().then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error, 'expected a ConfigError').toBeInstanceOf(ConfigError);
    return error instanceof ConfigErrors ? error.errors.map((each) => each.message) : [(error as ConfigError).message];
  }

  it('no scenario, no options, options missing or of the wrong type, an unknown key', async () => {
    const { ran, run } = plannedRun(scenario('s'));
    const { variant, revision, repeat } = run;
    const call = runLoadedScenario as (...args: unknown[]) => Promise<unknown>;
    expect(await refusal(() => call())).toEqual([
      "runLoadedScenario at scenario: expected a scenario loadSuite loaded (a planned run's scenario: loadSuite(selection).runs[i].scenario), got nothing",
      "runLoadedScenario at options: expected the options {variant, revision, repeat, ...} (a planned run's variant, revision and repeat), got nothing",
    ]);
    expect(await refusal(() => call(run.scenario))).toEqual([
      "runLoadedScenario at options: expected the options {variant, revision, repeat, ...} (a planned run's variant, revision and repeat), got nothing",
    ]);
    expect(await refusal(() => call(run, { variant, revision, repeat }))).toEqual([
      expect.stringMatching(/^runLoadedScenario at scenario: expected a scenario loadSuite loaded .*, got an object$/),
    ]);
    expect(await refusal(() => call(run.scenario, { variant, repeat }))).toEqual([
      "runLoadedScenario options at revision: expected the revision to run (a planned run's revision: the scenario's with the variant's delta applied), got nothing",
    ]);
    expect(await refusal(() => call(run.scenario, { variant: 5, revision, repeat: -1 }))).toEqual([
      'runLoadedScenario options at variant: expected the variant\'s name (a planned run\'s variant, e.g. "base"), got number 5',
      'runLoadedScenario options at repeat: expected the repeat index, a whole number >= 0, got number -1',
    ]);
    expect(await refusal(() => call(run.scenario, { variant, revision, repeat, timeout: 100 }))).toEqual([
      expect.stringMatching(/^runLoadedScenario options at timeout: unknown key "timeout" \(did you mean "timeoutMs"\?\); expected one of: /),
    ]);
    // runSuite's own checks of the options they share.
    expect(await refusal(() => call(run.scenario, { variant, revision, repeat, timeoutMs: 0, signal: 'x' }))).toEqual([
      'runLoadedScenario options at timeoutMs: expected a whole number of ms from 1 to 2147483647, got number 0',
      'runLoadedScenario options at signal: expected an AbortSignal, got string "x"',
    ]);
    expect(existsSync(ran)).toBe(false);
  });
});
