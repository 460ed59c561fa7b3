import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cassettePath } from '../../src/runner/cassettes/cassette-path.js';
import type { Report } from '../../src/runner/report/report.js';
import { tempDir } from '../helpers/temp-dir.js';
import { startFakeProvider, type FakeProvider } from '../runner/cassettes/fake-provider.js';
import { agentYaml, scenarioYaml, SECRETS, stableRow } from '../runner/cassettes/shop-suite.js';
import { AGENT_YAML, passingScenario, runCli } from './cli.js';

const ID = 'refund.scenario.yaml#refund';
let provider: FakeProvider | undefined;

afterEach(async () => {
  await provider?.close().catch(() => undefined);
  provider = undefined;
});

function readReport(dir: string): Report {
  return JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
}

describe('agentcheck run --cassettes (end to end)', () => {
  it('records against a real local server, then replays with the server closed and no key', async () => {
    provider = await startFakeProvider();
    const dir = tempDir({ 'agent.yaml': agentYaml(provider.origin), 'refund.scenario.yaml': scenarioYaml() });
    const recordOut = join(dir, 'out-record');
    const recorded = await runCli(['run', '.', '--cassettes', 'record', '--reporter', 'json', '--out', recordOut], dir, { OPENAI_API_KEY: SECRETS.openaiKey });
    expect(recorded.exitCode, recorded.all).toBe(0);
    expect(provider.seen).toHaveLength(4);

    // Default folder: fixtures/cassettes under the cwd (no suite config here).
    const cassettes = join(dir, 'fixtures', 'cassettes');
    const file = cassettePath(cassettes, ID, 'base', 0);
    const text = readFileSync(file, 'utf8');
    expect(JSON.parse(text).interactions).toHaveLength(4);
    for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);

    await provider.close();
    const replayOut = join(dir, 'out-replay');
    // An empty key counts as unset: the replay must not need one.
    const replayed = await runCli(['run', '.', '--cassettes', 'replay', '--reporter', 'json', '--out', replayOut], dir, { OPENAI_API_KEY: '' });
    expect(replayed.exitCode, replayed.all).toBe(0);
    expect(readReport(replayOut).scenarios.map(stableRow)).toEqual(readReport(recordOut).scenarios.map(stableRow));
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it("needs the variables an http tool's headers read at replay too, set to any value, as docs/cassettes.md says", async () => {
    provider = await startFakeProvider();
    const agent = agentYaml(provider.origin).replace(`{x-api-key: ${SECRETS.shopHeaderKey}}`, '{x-api-key: "{{ env.SHOP_KEY }}"}');
    const dir = tempDir({ 'agent.yaml': agent, 'refund.scenario.yaml': scenarioYaml() });
    const recordOut = join(dir, 'out-record');
    const env = { OPENAI_API_KEY: SECRETS.openaiKey, SHOP_KEY: SECRETS.shopHeaderKey };
    const recorded = await runCli(['run', '.', '--cassettes', 'record', '--reporter', 'json', '--out', recordOut], dir, env);
    expect(recorded.exitCode, recorded.all).toBe(0);
    await provider.close();
    const unsetOut = join(dir, 'out-unset');
    const unset = await runCli(['run', '.', '--cassettes', 'replay', '--reporter', 'json', '--out', unsetOut], dir, { OPENAI_API_KEY: '' });
    expect(unset.exitCode, unset.all).toBe(1);
    expect(readReport(unsetOut).scenarios[0].error).toMatchObject({
      type: 'TEMPLATE_UNDEFINED',
      message: 'tool lookup_order: http.headers.x-api-key needs the environment variable SHOP_KEY, which is not set',
    });
    // The header is never compared: any value replays the recording.
    const replayOut = join(dir, 'out-replay');
    const replayed = await runCli(['run', '.', '--cassettes', 'replay', '--reporter', 'json', '--out', replayOut], dir, {
      OPENAI_API_KEY: '',
      SHOP_KEY: 'replay',
    });
    expect(replayed.exitCode, replayed.all).toBe(0);
    expect(readReport(replayOut).scenarios.map(stableRow)).toEqual(readReport(recordOut).scenarios.map(stableRow));
    const doc = readFileSync(join(import.meta.dirname, '../../docs/cassettes.md'), 'utf8').replace(/\s+/g, ' ');
    expect(doc).toContain("The variables an `http` tool's headers read as `{{ env.NAME }}` (docs/formats.md, Tools) must still be set at replay");
    expect(doc).toContain('Any value works, even an empty one');
  });

  it('takes the folder from the config, lets the flag override its mode, and errors on a missing cassette', async () => {
    provider = await startFakeProvider();
    const dir = tempDir({
      'agent.yaml': agentYaml(provider.origin),
      'refund.scenario.yaml': scenarioYaml(),
      'agentcheck.config.yaml': 'cassettes: {mode: record, dir: tapes}\n',
    });
    const out = join(dir, 'out');
    const result = await runCli(['run', '.', '--cassettes', 'replay', '--reporter', 'json', '--out', out], dir, { OPENAI_API_KEY: SECRETS.openaiKey });
    expect(result.exitCode, result.all).toBe(1);
    const [row] = readReport(out).scenarios;
    expect(row.error?.type).toBe('CASSETTE_MISSING');
    expect(row.error?.message).toContain(cassettePath(join(dir, 'tapes'), ID, 'base', 0));
    expect(provider.seen).toHaveLength(0);

    // The config's mode applies without the flag.
    const recorded = await runCli(['run', '.', '--reporter', 'json', '--out', out], dir, { OPENAI_API_KEY: SECRETS.openaiKey });
    expect(recorded.exitCode, recorded.all).toBe(0);
    expect(existsSync(cassettePath(join(dir, 'tapes'), ID, 'base', 0))).toBe(true);
    writeFileSync(join(dir, 'agentcheck.config.yaml'), 'cassettes: {mode: replay, dir: tapes}\n');
    await provider.close();
    const replayed = await runCli(['run', '.', '--reporter', 'json', '--out', out], dir, { OPENAI_API_KEY: '' });
    expect(replayed.exitCode, replayed.all).toBe(0);
  });

  it('leaves a cassettes.dir that is a file alone when cassettes are off, in run and validate alike', async () => {
    const dir = tempDir({ 'tapes.txt': '', 'agent.yaml': AGENT_YAML, 'a.scenario.yaml': passingScenario('a') });
    const config = join(dir, 'agentcheck.config.yaml');
    // Off by default, off in the config, and off by the flag over the config's replay: the folder is never used.
    for (const [yaml, flag] of [
      ['cassettes: {dir: tapes.txt}\n', []],
      ['cassettes: {mode: off, dir: tapes.txt}\n', []],
      ['cassettes: {mode: replay, dir: tapes.txt/sub}\n', ['--cassettes', 'off']],
    ] as const) {
      writeFileSync(config, yaml);
      const run = await runCli(['run', '.', '--reporter', 'json', '--out', join(dir, 'out'), ...flag], dir);
      expect(run.exitCode, `${yaml} ${run.all}`).toBe(0);
      if (!flag.length) {
        const validate = await runCli(['validate', '.'], dir);
        expect(validate.exitCode, `${yaml} ${validate.all}`).toBe(0);
      }
    }
    // In a mode that uses it, the same folder is refused before any run, located in the config.
    writeFileSync(config, 'cassettes: {mode: off, dir: tapes.txt}\n');
    const replay = await runCli(['run', '.', '--cassettes', 'replay', '--reporter', 'json', '--out', join(dir, 'out')], dir);
    expect(replay.exitCode, replay.all).toBe(2);
    expect(replay.stderr).toMatch(/agentcheck\.config\.yaml:1:\d+ at cassettes\.dir: must be a folder, but this is a file, not a folder/);
    writeFileSync(config, 'cassettes: {mode: replay, dir: tapes.txt}\n');
    const validate = await runCli(['validate', '.'], dir);
    expect(validate.exitCode, validate.all).toBe(2);
    expect(validate.all).toMatch(/at cassettes\.dir: must be a folder, but this is a file/);
  });
});
