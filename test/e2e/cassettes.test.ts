import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cassettePath } from '../../src/runner/cassettes/cassette-path.js';
import type { Report } from '../../src/runner/report/report.js';
import { runMain } from '../helpers/run-main.js';
import { shared } from '../helpers/shared-fixture.js';
import { tempDir } from '../helpers/temp-dir.js';
import { startFakeProvider, type FakeProvider } from '../runner/cassettes/fake-provider.js';
import { agentYaml, scenarioYaml, SECRETS, stableRow } from '../runner/cassettes/shop-suite.js';
import { AGENT_YAML, passingScenario, runCli } from './cli.js';

const ID = 'refund.scenario.yaml#refund';
const ENV_ID = 'env-refund.scenario.yaml#refund';
let provider: FakeProvider | undefined;

afterEach(async () => {
  await provider?.close().catch(() => undefined);
  provider = undefined;
});

function readReport(dir: string): Report {
  return JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
}

describe('agentcheck run --cassettes (end to end)', () => {
  // One suite records once and replays twice: refund.scenario.yaml's build has its keys written
  // out, env-refund.scenario.yaml's http tool reads its header from SHOP_KEY.
  const recordAndReplay = shared(async (dir) => {
    const server = await startFakeProvider();
    const cwd = dir({
      'agent.yaml': agentYaml(server.origin),
      'env-agent.yaml': agentYaml(server.origin).replace(`{x-api-key: ${SECRETS.shopHeaderKey}}`, '{x-api-key: "{{ env.SHOP_KEY }}"}'),
      'refund.scenario.yaml': scenarioYaml(),
      'env-refund.scenario.yaml': scenarioYaml().replace('agent: agent.yaml', 'agent: env-agent.yaml'),
    });
    const args = (mode: string, out: string) => ['run', '.', '--cassettes', mode, '--reporter', 'json', '--out', join(cwd, out)];
    const run = (mode: string, out: string, env: Record<string, string>) => runCli(args(mode, out), cwd, env);
    let recorded;
    try {
      recorded = await run('record', 'out-record', { OPENAI_API_KEY: SECRETS.openaiKey, SHOP_KEY: SECRETS.shopHeaderKey });
    } finally {
      await server.close();
    }
    // Default folder: fixtures/cassettes under the cwd (no suite config here).
    const file = (id: string) => cassettePath(join(cwd, 'fixtures', 'cassettes'), id, 'base', 0);
    const texts = new Map([ID, ENV_ID].map((id) => [id, readFileSync(file(id), 'utf8')]));
    // An empty key counts as unset: the replays must not need one.
    const unset = await run('replay', 'out-unset', { OPENAI_API_KEY: '' });
    // The passing replay in-process, as the config's record and replay below: what it reads is the
    // cassettes' logic; the built CLI records (exit 0) and replays without SHOP_KEY (exit 1) above.
    // runMain, not runMainFull: the only change such a run leaves is the global dispatcher Node's
    // fetch makes at its first use in a process (runMainFull reports it when no test fetched before).
    const replayed = await runMain(args('replay', 'out-replay'), cwd, { OPENAI_API_KEY: '', SHOP_KEY: 'replay' });
    const rows = (out: string) => new Map(readReport(join(cwd, out)).scenarios.map((row) => [row.id, row]));
    return { seen: server.seen, recorded, unset, replayed, file, texts, rows };
  });

  it('records against a real local server, then replays with the server closed and no key', async () => {
    const { seen, recorded, replayed, file, texts, rows } = await recordAndReplay();
    expect(recorded.exitCode, recorded.all).toBe(0);
    // Four requests for each scenario.
    expect(seen).toHaveLength(8);
    for (const [id, text] of texts) {
      expect(JSON.parse(text).interactions, id).toHaveLength(4);
      for (const secret of Object.values(SECRETS)) expect(text, id).not.toContain(secret);
    }
    expect(replayed.exitCode, replayed.all).toBe(0);
    expect(stableRow(rows('out-replay').get(ID)!)).toEqual(stableRow(rows('out-record').get(ID)!));
    for (const [id, text] of texts) expect(readFileSync(file(id), 'utf8'), id).toBe(text);
  });

  it("needs the variables an http tool's headers read at replay too, set to any value, as docs/cassettes.md says", async () => {
    const { recorded, unset, replayed, rows } = await recordAndReplay();
    expect(recorded.exitCode, recorded.all).toBe(0);
    expect(unset.exitCode, unset.all).toBe(1);
    expect(rows('out-unset').get(ENV_ID)?.error).toMatchObject({
      type: 'TEMPLATE_UNDEFINED',
      message: 'tool lookup_order: http.headers.x-api-key needs the environment variable SHOP_KEY, which is not set',
    });
    // The header is never compared: any value replays the recording.
    expect(replayed.exitCode, replayed.all).toBe(0);
    expect(stableRow(rows('out-replay').get(ENV_ID)!)).toEqual(stableRow(rows('out-record').get(ENV_ID)!));
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
    // In-process (runMain): the built CLI records and replays in the tests above, and this test
    // reads what the config and the flag select.
    const result = await runMain(['run', '.', '--cassettes', 'replay', '--reporter', 'json', '--out', out], dir, { OPENAI_API_KEY: SECRETS.openaiKey });
    expect(result.exitCode, result.all).toBe(1);
    const [row] = readReport(out).scenarios;
    expect(row.error?.type).toBe('CASSETTE_MISSING');
    expect(row.error?.message).toContain(cassettePath(join(dir, 'tapes'), ID, 'base', 0));
    expect(provider.seen).toHaveLength(0);

    // The config's mode applies without the flag.
    const recorded = await runMain(['run', '.', '--reporter', 'json', '--out', out], dir, { OPENAI_API_KEY: SECRETS.openaiKey });
    expect(recorded.exitCode, recorded.all).toBe(0);
    expect(existsSync(cassettePath(join(dir, 'tapes'), ID, 'base', 0))).toBe(true);
    writeFileSync(join(dir, 'agentcheck.config.yaml'), 'cassettes: {mode: replay, dir: tapes}\n');
    await provider.close();
    const replayed = await runMain(['run', '.', '--reporter', 'json', '--out', out], dir, { OPENAI_API_KEY: '' });
    expect(replayed.exitCode, replayed.all).toBe(0);
  });

  it('leaves a cassettes.dir that is a file alone when cassettes are off, in run and validate alike', async () => {
    // A folder per config: off by default, off in the config, and off by the flag over the config's replay.
    const configs: Record<string, string> = {
      default: 'cassettes: {dir: tapes.txt}\n',
      off: 'cassettes: {mode: off, dir: tapes.txt}\n',
      'flag-off': 'cassettes: {mode: replay, dir: tapes.txt/sub}\n',
      replay: 'cassettes: {mode: replay, dir: tapes.txt}\n',
    };
    const files: Record<string, string> = {};
    for (const [name, yaml] of Object.entries(configs)) {
      Object.assign(files, {
        [`${name}/tapes.txt`]: '',
        [`${name}/agent.yaml`]: AGENT_YAML,
        [`${name}/a.scenario.yaml`]: passingScenario('a'),
        [`${name}/agentcheck.config.yaml`]: yaml,
      });
    }
    const dir = tempDir(files);
    for (const [name, flag] of [
      ['default', []],
      ['off', []],
      ['flag-off', ['--cassettes', 'off']],
    ] as const) {
      // In-process (runMain): the built CLI's runs are the record and replays above.
      const run = await runMain(['run', '.', '--reporter', 'json', '--out', 'out', ...flag], join(dir, name));
      expect(run.exitCode, `${name} ${run.all}`).toBe(0);
    }
    // validate checks the config of each folder given: both are counted valid.
    const validate = await runCli(['validate', 'default', 'off'], dir);
    expect(validate.exitCode, validate.all).toBe(0);
    expect(validate.stdout).toContain('2 config(s)');
    // In a mode that uses it, the same folder is refused before any run, located in the config.
    const replay = await runCli(['run', '.', '--cassettes', 'replay', '--reporter', 'json', '--out', 'out'], join(dir, 'off'));
    expect(replay.exitCode, replay.all).toBe(2);
    expect(replay.stderr).toMatch(/agentcheck\.config\.yaml:1:\d+ at cassettes\.dir: must be a folder, but this is a file, not a folder/);
    const refused = await runCli(['validate', '.'], join(dir, 'replay'));
    expect(refused.exitCode, refused.all).toBe(2);
    expect(refused.all).toMatch(/at cassettes\.dir: must be a folder, but this is a file/);
  });
});
