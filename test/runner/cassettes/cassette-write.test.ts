import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cassettePath } from '../../../src/runner/cassettes/cassette-path.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { startFakeProvider, type FakeProvider } from './fake-provider.js';
import { agentYaml, runShopSuite, scenarioYaml } from './shop-suite.js';

let provider: FakeProvider | undefined;

afterEach(async () => {
  await provider?.close().catch(() => undefined);
  provider = undefined;
});

describe('a cassette that cannot be written', () => {
  it('errors the row with CASSETTE_WRITE_FAILED naming the file: a file where its folder goes, a folder where it goes', async () => {
    provider = await startFakeProvider();
    const dir = tempDir({ 'agent.yaml': agentYaml(provider.origin), 'refund.scenario.yaml': scenarioYaml() });
    const cassettes = join(dir, 'cassettes');
    const file = cassettePath(cassettes, 'refund.scenario.yaml#refund', 'base', 0);
    const scenarioFolder = dirname(dirname(file));
    mkdirSync(cassettes);
    writeFileSync(scenarioFolder, 'not a folder');

    const [blocked] = await runShopSuite(dir, { mode: 'record', dir: cassettes });
    expect(blocked.status).toBe('error');
    expect(blocked.error).toEqual({ type: 'CASSETTE_WRITE_FAILED', message: `cannot write the cassette ${file}: ${scenarioFolder} is a file, not a folder` });

    // The folder in place of the file: rename's EISDIR names the temp file; the message names the cassette.
    const fresh = join(dir, 'fresh');
    const inFolder = cassettePath(fresh, 'refund.scenario.yaml#refund', 'base', 1);
    mkdirSync(inFolder, { recursive: true });
    const rows = await runShopSuite(dir, { mode: 'record', dir: fresh }, undefined, 2);
    expect(rows.map((row) => row.status)).toEqual(['pass', 'error']);
    expect(rows[1].error).toEqual({ type: 'CASSETTE_WRITE_FAILED', message: `cannot write the cassette ${inFolder}: a folder is in its place` });
  });
});
