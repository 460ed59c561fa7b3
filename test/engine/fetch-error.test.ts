import { describe, expect, it } from 'vitest';
import { describeFetchError } from '../../src/engine/fetch-error.js';
import { runShopSuite, agentYaml, scenarioYaml } from '../runner/cassettes/shop-suite.js';
import { tempDir } from '../helpers/temp-dir.js';
import { join } from 'node:path';

const refused = () =>
  Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }) });

describe('describeFetchError', () => {
  it("reads undici's error and msw's wrapper of it the same: what failed, and why", () => {
    expect(describeFetchError(refused())).toBe('fetch failed (connect ECONNREFUSED 127.0.0.1:9)');
    // msw wraps an error response whose cause is the live failure.
    const wrapped = Object.assign(new TypeError('Failed to fetch'), { cause: Object.assign(Response.error(), { cause: refused() }) });
    expect(describeFetchError(wrapped)).toBe('fetch failed (connect ECONNREFUSED 127.0.0.1:9)');
    expect(describeFetchError(new Error('timeout'))).toBe('timeout');
    expect(describeFetchError('odd')).toBe('odd');
  });

  it('keeps the reason of a refused model connection while cassettes record', async () => {
    const dir = tempDir({ 'agent.yaml': agentYaml('http://127.0.0.1:9'), 'a.scenario.yaml': scenarioYaml() });
    const [row] = await runShopSuite(dir, { mode: 'record', dir: join(dir, 'cassettes') });
    expect(row.error?.message).toMatch(/network error: fetch failed \((connect ECONNREFUSED|bad port)/);
  });
});
