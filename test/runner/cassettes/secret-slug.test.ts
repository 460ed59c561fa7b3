import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cassettePath } from '../../../src/runner/cassettes/cassette-path.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { startFakeProvider, type FakeProvider } from './fake-provider.js';
import { agentYaml, runShopSuite, scenarioYaml, SECRETS } from './shop-suite.js';

const TOKEN = 'ACMEsecretTOKEN998877';
let provider: FakeProvider | undefined;

afterEach(async () => {
  await provider?.close().catch(() => undefined);
  provider = undefined;
});

/** Every path under `dir`, relative to it: folders and files. */
function pathsUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' });
}

describe('a scenario name holding a secret value', () => {
  it('is slugged as reports show it, [redacted], so the value reaches no folder name; replay needs the same value set', async () => {
    provider = await startFakeProvider();
    const scenario = scenarioYaml().replace('name: refund', `name: "tenant ${TOKEN} order"`);
    const dir = tempDir({ 'agent.yaml': agentYaml(provider.origin), 'refund.scenario.yaml': scenario });
    const cassettes = join(dir, 'cassettes');
    const env = { OPENAI_API_KEY: SECRETS.openaiKey, GITHUB_TOKEN: TOKEN };

    const [recorded] = await runShopSuite(dir, { mode: 'record', dir: cassettes }, env);
    expect(recorded.status, recorded.reason).toBe('pass');
    const shownId = 'refund.scenario.yaml#tenant [redacted] order';
    const file = cassettePath(cassettes, shownId, 'base', 0);
    expect(pathsUnder(cassettes)).toContain(file.slice(cassettes.length + 1));
    for (const path of pathsUnder(cassettes)) expect(path).not.toContain(TOKEN);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ scenario: shownId });

    // The same environment finds the same folder: a second recording replaces the file, a replay reads it.
    await runShopSuite(dir, { mode: 'record', dir: cassettes }, env);
    expect(pathsUnder(cassettes).filter((path) => path.endsWith('.json'))).toEqual([file.slice(cassettes.length + 1)]);
    await provider.close();
    const [replayed] = await runShopSuite(dir, { mode: 'replay', dir: cassettes }, { GITHUB_TOKEN: TOKEN });
    expect(replayed.status, replayed.reason).toBe('pass');

    // Unset at replay, the value is no secret any more: the name is slugged as written, a folder never recorded.
    const [unset] = await runShopSuite(dir, { mode: 'replay', dir: cassettes }, {});
    expect(unset.error?.type).toBe('CASSETTE_MISSING');
    expect(unset.error?.message).toContain(cassettePath(cassettes, `refund.scenario.yaml#tenant ${TOKEN} order`, 'base', 0));
  });
});
