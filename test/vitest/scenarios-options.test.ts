import { join } from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ScenariosOptions } from '../../src/vitest/index.js';
import type { SuiteSelection } from '../../src/runner/suite/load-suite.js';
import { loadScenarios } from '../../src/vitest/load-scenarios.js';
import { loadSuite, runLoadedScenario } from '../../src/index.js';
import { runPlanned, runScenario } from '../../src/vitest/run-scenario.js';
import { tempDir } from '../helpers/temp-dir.js';

describe('agentcheck/vitest and the config cassettes', () => {
  it('replays as agentcheck run does: a run with no recorded cassette fails CASSETTE_MISSING, never a live call', async () => {
    const dir = tempDir({
      'agent.yaml': 'id: live\nagent:\n  name: Live\n  llm: {provider: openai, model: gpt-x, base_url: "http://127.0.0.1:9/v1", max_retries: 0}\n',
      'agentcheck.config.yaml': 'cassettes: {mode: replay, dir: cassettes}\n',
      'a.scenario.yaml': 'name: a\nagent: agent.yaml\ninputs: {messages: [{role: user, content: hi}]}\nexpect: {checks: [{output: {contains: x}}]}\n',
    });
    const row = await runScenario(join(dir, 'a.scenario.yaml'), undefined, { cwd: dir, config: 'agentcheck.config.yaml' });
    expect(row.status).toBe('error');
    expect(row.error?.type).toBe('CASSETTE_MISSING');
  });
});

describe('agentcheck/vitest scenarios() that select nothing', () => {
  it('throws, as agentcheck run exits 2, instead of defining no tests', async () => {
    const { scenarios } = await import('../../src/vitest/scenarios.js');
    const dir = tempDir({
      'agent.yaml': 'id: a\nagent:\n  name: A\n',
      'tests/a.scenario.yaml': 'name: a\nagent: ../agent.yaml\ntags: [smoke]\ninputs: {messages: [{role: user, content: hi}]}\nmodel: {script: [{text: ok}]}\n',
    });
    expect(() => scenarios('test/**/*.scenario.yaml', { cwd: dir })).toThrow(
      `scenarios() selects nothing: it matches no scenario file (*.scenario.yaml or *.scenarios.yaml) (read from ${dir}, the cwd option)`,
    );
    expect(() => scenarios('nothere/*.scenarios.yaml')).toThrow(
      `it matches no scenario file (*.scenario.yaml or *.scenarios.yaml) (read from ${process.cwd()}, process.cwd(); pass the cwd option to read it from elsewhere)`,
    );
    expect(() => scenarios('tests/**/*.scenario.yaml', { cwd: dir, tags: ['nightly'] })).toThrow('none of its 1 scenario(s) matches tags nightly');
    // A filter that matches nothing is a bad selection; a pattern that finds no file is "not found".
    expect(() => scenarios('tests/**/*.scenario.yaml', { cwd: dir, tags: ['nightly'] })).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID' }));
    expect(() => scenarios('test/**/*.scenario.yaml', { cwd: dir })).toThrow(expect.objectContaining({ code: 'CONFIG_NOT_FOUND' }));
    // An empty pattern (an unset variable) is refused, never read as the whole folder.
    expect(() => scenarios('', { cwd: dir })).toThrow('scenarios(): expected a scenario file, folder or glob, got string ""');
  });
});

describe('agentcheck/vitest runScenario() given a wrong path', () => {
  it("names runScenario(), what the path is and where it was read from, never the CLI's flags", async () => {
    const scenario = 'name: NAME\nagent: ../agent.yaml\ninputs: {messages: [{role: user, content: hi}]}\nmodel: {script: [{text: ok}]}\n';
    const dir = tempDir({
      'agent.yaml': 'id: a\nagent:\n  name: A\n',
      'empty/notes.txt': '',
      'two/a.scenario.yaml': scenario.replace('NAME', 'a'),
      'two/b.scenario.yaml': scenario.replace('NAME', 'b'),
    });
    const error = (promise: Promise<unknown>) =>
      promise.then(
        () => expect.unreachable(),
        (thrown: Error) => thrown,
      );
    const empty = await error(runScenario('empty', undefined, { cwd: dir }));
    expect(empty).toMatchObject({ code: 'CONFIG_NOT_FOUND' });
    expect(empty.message).toBe('empty: runScenario(): the folder holds no scenario (*.scenario.yaml, *.scenarios.yaml); expected a scenario file');
    // A glob that matches nothing names the folder it was read from, as a path not found does.
    const noMatch = await error(runScenario('Scenarios/*.scenarios.yaml', 'x', { cwd: dir }));
    expect(noMatch).toMatchObject({ code: 'CONFIG_NOT_FOUND' });
    expect(noMatch.message).toBe(
      `Scenarios/*.scenarios.yaml: runScenario(): the pattern matches no scenario (*.scenario.yaml, *.scenarios.yaml) (read from ${dir}, the cwd option); expected a scenario file`,
    );
    expect((await error(runScenario('Scenarios/*.scenarios.yaml', 'x'))).message).toContain(
      `(read from ${process.cwd()}, process.cwd(); pass the cwd option to read it from elsewhere)`,
    );
    expect((await error(runScenario(join(dir, 'nothere/*.scenarios.yaml'), 'x'))).message).toBe(
      `${join(dir, 'nothere/*.scenarios.yaml')}: runScenario(): the pattern matches no scenario (*.scenario.yaml, *.scenarios.yaml); expected a scenario file`,
    );
    const missing = await error(runScenario('nope-dir', undefined, { cwd: dir }));
    expect(missing).toMatchObject({ code: 'CONFIG_NOT_FOUND' });
    expect(missing.message).toBe(
      `nope-dir: runScenario(): path not found (read from ${dir}, the cwd option); expected a scenario file or a folder of *.scenario.yaml files`,
    );
    expect((await error(runScenario('nope-dir'))).message).toContain('process.cwd(); pass the cwd option to read it from elsewhere');
    expect((await error(runScenario(''))).message).toBe('runScenario(): expected a scenario file, folder or glob, got string ""');
    const noCwd = await error(runScenario('a.scenario.yaml', undefined, { cwd: join(dir, 'no-such-dir') }));
    expect(noCwd.message).toBe(
      `runScenario() options at cwd: folder not found: ${join(dir, 'no-such-dir')}; expected the folder the pattern and config are relative to`,
    );
    // A file given as the cwd is named as one; a path under a file is not there (not an ENOTDIR crash).
    const fileCwd = await error(runScenario('a.scenario.yaml', undefined, { cwd: join(dir, 'agent.yaml') }));
    expect(fileCwd).toMatchObject({ code: 'CONFIG_INVALID' });
    expect(fileCwd.message).toBe(
      `runScenario() options at cwd: ${join(dir, 'agent.yaml')} is a file, not a folder; expected the folder the pattern and config are relative to`,
    );
    const underFile = await error(runScenario('a.scenario.yaml', undefined, { cwd: join(dir, 'agent.yaml', 'sub') }));
    expect(underFile).toMatchObject({ code: 'CONFIG_NOT_FOUND' });
    expect(underFile.message).toContain(`at cwd: folder not found: ${join(dir, 'agent.yaml', 'sub')}`);
    expect((await error(runScenario('agent.yaml/x', undefined, { cwd: dir }))).message).toBe(
      `agent.yaml/x: runScenario(): path not found (read from ${dir}, the cwd option); expected a scenario file or a folder of *.scenario.yaml files`,
    );
    expect((await error(runScenario('two', undefined, { cwd: dir }))).message).toBe(
      'two: runScenario(): the folder holds 2 scenarios (a, b); pass the name of the one to run: runScenario(file, name)',
    );
  });
});

describe('agentcheck/vitest options are checked by name', () => {
  it('refuses a misspelt or misplaced option of scenarios() and runScenario() instead of running the default', async () => {
    const { scenarios } = await import('../../src/vitest/scenarios.js');
    const dir = tempDir({
      'agent.yaml': 'id: a\nagent:\n  name: A\n',
      'a.scenario.yaml': 'name: a\nagent: agent.yaml\ninputs: {messages: [{role: user, content: hi}]}\nmodel: {script: [{text: ok}]}\n',
    });
    // `variant` is runScenario's option; scenarios() takes `variants`.
    expect(() => scenarios('a.scenario.yaml', { cwd: dir, variant: 'v2' } as never)).toThrow(
      'scenarios() options at variant: unknown key "variant" (did you mean "variants"?); expected one of: cwd, config, variants, repeat, grep, tags, timeout, concurrent',
    );
    await expect(runScenario('a.scenario.yaml', 'a', { cwd: dir, varient: 'v2' } as never)).rejects.toThrow(
      'runScenario() options at varient: unknown key "varient" (did you mean "variant"?); expected one of: cwd, config, variant, signal',
    );
    // A value is named by the caller's own option, never a CLI flag or an internal function.
    await expect(runScenario('a.scenario.yaml', 'a', { cwd: dir, variant: 'lean' })).rejects.toThrow(
      'runScenario() options at variant: unknown variant string "lean"; expected one of: base',
    );
    expect(() => scenarios('a.scenario.yaml', { cwd: dir, variants: ['lean'] })).toThrow('scenarios() options at variants: unknown variant string "lean"');
    expect(() => scenarios('a.scenario.yaml', { cwd: dir, repeat: 0 })).toThrow('scenarios() options at repeat: expected a whole number >= 1, got number 0');
    // grep is text, as --grep takes it: no /regex/ form (which would select nothing).
    expect(() => scenarios('a.scenario.yaml', { cwd: dir, grep: 5 as unknown as string })).toThrow(
      "scenarios() options at grep: expected a text to select scenario names with, as --grep takes it (contained, or a regular expression such as '^refund'), got number 5",
    );
    // An empty list is refused, never read as "every variant".
    expect(() => scenarios('a.scenario.yaml', { cwd: dir, variants: [] })).toThrow(
      'scenarios() options at variants: expected a non-empty list of variant names',
    );
    // An empty grep or tags (an unset variable) is refused as `run --grep ""` is, never "no filter" or "none".
    expect(() => scenarios('a.scenario.yaml', { cwd: dir, grep: '' })).toThrow('scenarios() options at grep: expected a value, got an empty string');
    expect(() => scenarios('a.scenario.yaml', { cwd: dir, tags: [] })).toThrow('scenarios() options at tags: expected a non-empty list of tags, got []');
    expect(() => scenarios('a.scenario.yaml', { cwd: dir, tags: ['smoke', ' '] })).toThrow(
      'scenarios() options at tags: expected a non-empty list of tags, got an empty string at index 1',
    );
  });

  it('refuses scenarios() options that are not an object or a value of the wrong type, naming the option, never running the default', async () => {
    const { scenarios } = await import('../../src/vitest/scenarios.js');
    const dir = tempDir({
      'agent.yaml': 'id: a\nagent:\n  name: A\n',
      'a.scenario.yaml': 'name: a\nagent: agent.yaml\ninputs: {messages: [{role: user, content: hi}]}\nmodel: {script: [{text: ok}]}\n',
    });
    const file = join(dir, 'a.scenario.yaml');
    expect(() => scenarios(file, 'x' as never)).toThrow('scenarios() options: expected an options object, got string "x"');
    expect(() => scenarios(file, null as never)).toThrow('scenarios() options: expected an options object, got null');
    for (const timeout of [-1, 0, 1.5, '5']) {
      expect(() => scenarios(file, { timeout } as never)).toThrow(
        `scenarios() options at timeout: expected a whole number of ms from 1 to 2147483647, got ${typeof timeout} ${JSON.stringify(timeout)}`,
      );
    }
    expect(() => scenarios(file, { concurrent: 'yes' } as never)).toThrow('scenarios() options at concurrent: expected true or false, got string "yes"');
    expect(() => scenarios(file, { concurrent: 'yes' } as never)).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID' }));
    // Named by the caller's option, not the internal loadSuite.
    expect(() => scenarios(file, { tags: 'smoke' } as never)).toThrow('scenarios() options at tags: expected a list of tags (strings), got string "smoke"');
    expect(() => scenarios(file, { cwd: 5 } as never)).toThrow('scenarios() options at cwd: expected a folder path, got number 5');
  });

  it('refuses runScenario() options that are not an object, a signal that is not an AbortSignal and a name that is not a string', async () => {
    const dir = tempDir({
      'agent.yaml': 'id: a\nagent:\n  name: A\n',
      'a.scenario.yaml': 'name: a\nagent: agent.yaml\ninputs: {messages: [{role: user, content: hi}]}\nmodel: {script: [{text: ok}]}\n',
    });
    const file = join(dir, 'a.scenario.yaml');
    await expect(runScenario(file, 'a', 'x' as never)).rejects.toThrow('runScenario() options: expected an options object, got string "x"');
    await expect(runScenario(file, 'a', null as never)).rejects.toThrow('runScenario() options: expected an options object, got null');
    await expect(runScenario(file, 'a', { signal: 'x' } as never)).rejects.toThrow('runScenario() options at signal: expected an AbortSignal, got string "x"');
    await expect(runScenario(file, 'a', { variant: 5 } as never)).rejects.toThrow('runScenario() options at variant: expected a variant name, got number 5');
    await expect(runScenario(file, 5 as never)).rejects.toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID', message: 'runScenario(): expected the name of a scenario as its second argument, got number 5' }),
    );
    expect((await runScenario(file, 'a', { signal: new AbortController().signal })).status).toBe('pass');
  });

  it('refuses an empty cwd or config (an unset variable), never read as the current folder or as no config', async () => {
    const { scenarios } = await import('../../src/vitest/scenarios.js');
    const dir = tempDir({
      'agent.yaml': 'id: a\nagent:\n  name: A\n',
      'a.scenario.yaml': 'name: a\nagent: agent.yaml\ninputs: {messages: [{role: user, content: hi}]}\nmodel: {script: [{text: ok}]}\n',
    });
    const file = join(dir, 'a.scenario.yaml');
    expect(() => scenarios(file, { cwd: '' })).toThrow('scenarios() options at cwd: expected a folder path, got an empty string');
    expect(() => scenarios(file, { config: '' })).toThrow('scenarios() options at config: expected a file path, got an empty string');
    await expect(runScenario(file, 'a', { cwd: '' })).rejects.toThrow('runScenario() options at cwd: expected a folder path, got an empty string');
    await expect(runScenario(file, 'a', { config: '' })).rejects.toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID', message: 'runScenario() options at config: expected a file path, got an empty string' }),
    );
  });
});

describe('agentcheck/vitest runScenario() of a skip scenario', () => {
  it('returns its skipped row without running it, as agentcheck run does', async () => {
    const dir = tempDir({
      'agent.yaml': 'id: a\nagent:\n  name: A\n',
      'a.scenario.yaml':
        'name: a\nagent: agent.yaml\nskip: not yet\ninputs: {messages: [{role: user, content: hi}]}\nmodel: {script: [{text: ok}]}\nexpect: {checks: [{output: {contains: never}}]}\n',
    });
    const row = await runScenario(join(dir, 'a.scenario.yaml'), undefined, { cwd: dir });
    expect(row).toMatchObject({ status: 'skipped', reason: 'skipped (not yet)', turns: 0 });
  });
});

describe('scenarios() with a suite config', () => {
  const judge = join(import.meta.dirname, '../../scenarios/judge');

  it('names scenarios from the config folder, as agentcheck run does, and replays the cassettes run recorded', async () => {
    const { plan, config } = loadScenarios('cases/*.yaml', { cwd: judge, config: 'agentcheck.config.yaml' });
    expect(plan.runs.map((run) => run.scenario.id)).toEqual(['cases/refunds.yaml#apologetic reply', 'cases/refunds.yaml#curt reply']);
    // The committed cassettes replay offline: no CASSETTE_MISSING, the judge's recorded answers decide.
    const rows = await Promise.all(plan.runs.map((run) => runPlanned(run, config)));
    expect(rows.map((row) => row.error?.type ?? null)).toEqual([null, null]);
    expect(rows.map((row) => row.status)).toEqual(['pass', 'pass']);
  });

  it('keeps the glob root as the id root without a config', () => {
    const { plan } = loadScenarios('scenarios/coding/resume-*.yaml', { cwd: join(judge, '../..') });
    expect(plan.runs.length).toBeGreaterThan(0);
    for (const run of plan.runs) expect(run.scenario.id).toMatch(/^resume-approvals\.scenarios\.yaml#/);
  });
});

describe('agentcheck/vitest runScenario() time limit', () => {
  it("ends a run past the scenario's or the config's timeout_ms with a TIMEOUT row, as agentcheck run does", async () => {
    const dir = tempDir({
      'agent.yaml': 'id: a\nagent:\n  name: A\n',
      'agentcheck.config.yaml': 'timeout_ms: 300\n',
      // The scripted answers wait a minute: only the limit ends these runs.
      'slow.scenarios.yaml':
        'defaults:\n  agent: agent.yaml\n  inputs: {messages: [{role: user, content: hi}]}\n  model: {script: [{text: done, delay_ms: 60000}]}\nscenarios:\n' +
        '  - name: own limit\n    timeout_ms: 200\n  - name: config limit\n',
    });
    const own = await runScenario(join(dir, 'slow.scenarios.yaml'), 'own limit', { cwd: dir });
    expect(own).toMatchObject({ status: 'error', error: { type: 'TIMEOUT', message: expect.stringContaining("after 200 ms (the scenario's timeout_ms)") } });
    const config = await runScenario(join(dir, 'slow.scenarios.yaml'), 'config limit', { cwd: dir, config: 'agentcheck.config.yaml' });
    expect(config).toMatchObject({ status: 'error', error: { type: 'TIMEOUT', message: expect.stringContaining('after 300 ms') } });
  });
});

describe('agentcheck/vitest runScenario() aborted', () => {
  it('gives a run its signal cuts short, or a signal already aborted, the not_run row runLoadedScenario gives, keeping what ran', async () => {
    const dir = tempDir({
      'agent.yaml': 'id: a\nagent:\n  name: A\n',
      // The scripted answer waits a minute: only the abort ends this run.
      'slow.scenario.yaml':
        'name: slow\nagent: agent.yaml\ninputs: {messages: [{role: user, content: hi}]}\nmodel: {script: [{text: done, delay_ms: 60000}]}\n',
    });
    const controller = new AbortController();
    const cut = runScenario('slow.scenario.yaml', undefined, { cwd: dir, signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    const row = await cut;
    expect(row).toMatchObject({ status: 'not_run', error: null, checks: [] });
    expect(row.reason).toMatch(/^not run to the end: the suite was interrupted/);
    expect(row.transcript?.[0]).toMatchObject({ role: 'user', content: 'hi' });
    expect(row.test_run?.trace_id).toEqual(expect.any(String));
    const before = await runScenario('slow.scenario.yaml', undefined, { cwd: dir, signal: controller.signal });
    const [run] = loadSuite({ paths: ['slow.scenario.yaml'] }, dir).runs;
    expect(before).toEqual(await runLoadedScenario(run.scenario, { variant: 'base', revision: run.revision, repeat: 0, signal: controller.signal }));
    expect(before).toMatchObject({ status: 'not_run', reason: 'not run: the suite was interrupted', test_run: null });
  });
});

describe('agentcheck/vitest runScenario() given a blank message', () => {
  it('refuses it at the message, as agentcheck run and test-run --inputs do, never runs it', async () => {
    const dir = tempDir({
      'agent.yaml': 'id: a\nagent:\n  name: A\n',
      'a.scenario.yaml': 'name: a\nagent: agent.yaml\ninputs: {messages: [{role: user, content: "  "}]}\nmodel: {script: [{text: ok}]}\n',
    });
    await expect(runScenario('a.scenario.yaml', 'a', { cwd: dir })).rejects.toThrow(
      expect.objectContaining({
        code: 'CONFIG_INVALID',
        message: `${join(dir, 'a.scenario.yaml')}:3:43 at inputs.messages[0].content: the message is empty; give the message text`,
      }),
    );
  });
});

describe('agentcheck/vitest option types', () => {
  it('take readonly lists (a const list of tags or variants), as loadSuite does', () => {
    const tags = ['smoke'] as const;
    const variants: readonly string[] = ['base'];
    // Checked by tsc (npm run typecheck): a readonly list was TS4104 here.
    expectTypeOf({ tags, variants }).toExtend<ScenariosOptions>();
    expectTypeOf({ paths: variants, tags, variants, overlay: variants }).toExtend<SuiteSelection>();
    // And read as they are, never changed: a frozen list loads.
    const dir = tempDir({
      'agent.yaml': 'id: a\nagent:\n  name: A\n',
      'a.scenario.yaml': 'name: a\nagent: agent.yaml\ntags: [smoke]\ninputs: {messages: [{role: user, content: hi}]}\nmodel: {script: [{text: ok}]}\n',
    });
    const { plan } = loadScenarios('a.scenario.yaml', { cwd: dir, tags: Object.freeze([...tags]), variants: Object.freeze([...variants]) });
    expect(plan.runs.map((run) => `${run.scenario.name} [${run.variant}]`)).toEqual(['a [base]']);
  });
});
