import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Cassette, type Interaction } from '../../../src/runner/cassettes/cassette.js';
import { readCassette } from '../../../src/runner/cassettes/cassette-file.js';
import { CASSETTES_FLAG } from '../../../src/runner/cassettes/cassette-mode-setting.js';
import { cassettePath } from '../../../src/runner/cassettes/cassette-path.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { startFakeProvider, type FakeProvider } from './fake-provider.js';
import { agentYaml, runShopSuite, scenarioYaml } from './shop-suite.js';
import { cassetteFileOf } from './cassette-fixture.js';

let provider: FakeProvider | undefined;

afterEach(async () => {
  await provider?.close().catch(() => undefined);
  provider = undefined;
});

/** A sound interaction: a GET answered with JSON. */
function interaction(): Interaction {
  return {
    request: { method: 'GET', url: 'http://shop.test/orders/1', headers: {} },
    match_key: { method: 'GET', url: 'http://shop.test/orders/1' },
    response: { status: 200, headers: { 'content-type': 'application/json' }, body: { id: '1' }, body_type: 'json' },
  };
}

/** The problem readCassette finds in a cassette of `interactions` (its message), or "valid". */
async function problemOf(interactions: unknown[]): Promise<string> {
  const file = cassetteFileOf(interactions);
  try {
    await readCassette(file, CASSETTES_FLAG);
    return 'valid';
  } catch (error) {
    expect((error as { code?: string }).code).toBe('CASSETTE_INVALID');
    return (error as Error).message;
  }
}

/** `interaction()` with `change` applied to its response. */
function withResponse(change: (response: Interaction['response']) => void): Interaction {
  const item = interaction();
  change(item.response);
  return item;
}

describe('cassette validation', () => {
  it('refuses response headers fetch cannot answer with, at the header', async () => {
    expect(await problemOf([interaction()])).toBe('valid');
    expect(await problemOf([interaction(), withResponse((response) => (response.headers['x-note'] = '€'))])).toMatch(
      /at interactions\[1\]\.response\.headers\.x-note: a header value cannot hold U\+20AC/,
    );
    expect(await problemOf([withResponse((response) => (response.headers['x-note'] = 'a\nb'))])).toMatch(
      /at interactions\[0\]\.response\.headers\.x-note: a header value cannot hold a line break \(LF/,
    );
    expect(await problemOf([withResponse((response) => (response.headers['bad name'] = 'x'))])).toMatch(
      /at interactions\[0\]\.response\.headers\["bad name"\]: header name "bad name" cannot be sent/,
    );
  });

  it('refuses a body that does not fit its body_type: text is a string, json any JSON value', async () => {
    for (const body of ['{"id": "1"}', '', 'plain']) {
      expect(await problemOf([withResponse((response) => Object.assign(response, { body, body_type: 'text' }))])).toBe('valid');
    }
    for (const body of [{ id: '1' }, [1], 'a string', 3, null, true]) {
      expect(await problemOf([withResponse((response) => Object.assign(response, { body, body_type: 'json' }))])).toBe('valid');
    }
    expect(await problemOf([interaction(), withResponse((response) => (response.body_type = 'text'))])).toMatch(
      /at interactions\[1\]\.response\.body: a body_type "text" body is sent as stored, so it must be a string, got an object; or set body_type "json"/,
    );
    for (const [body, shown] of [
      [[1], 'an array'],
      [3, 'number 3'],
      [null, 'null'],
    ] as const) {
      expect(await problemOf([withResponse((response) => Object.assign(response, { body, body_type: 'text' }))])).toContain(
        `at interactions[0].response.body: a body_type "text" body is sent as stored, so it must be a string, got ${shown}`,
      );
    }
  });

  it('refuses a match key field matchKey never makes, and a key mixing a model call with another body', async () => {
    const withKey = (change: (key: Record<string, unknown>) => void) => {
      const item = interaction();
      change(item.match_key as unknown as Record<string, unknown>);
      return item;
    };
    const modelCall = { model: 'gpt-test', system: 's', messages: [], tools: [], parameters: { temperature: 0 } };
    expect(await problemOf([withKey((key) => Object.assign(key, modelCall)), withKey((key) => (key.body = { q: 1 }))])).toBe('valid');
    expect(await problemOf([withKey((key) => (key.foo = 1))])).toMatch(/at interactions\[0\]\.match_key\.foo: unknown key "foo"/);
    expect(await problemOf([withKey((key) => (key.paramters = {}))])).toMatch(
      /at interactions\[0\]\.match_key\.paramters: unknown key "paramters".*parameters/,
    );
    expect(await problemOf([withKey((key) => (key.parameters = 1))])).toMatch(/at interactions\[0\]\.match_key\.parameters: expected object/);
    expect(await problemOf([withKey((key) => Object.assign(key, { model: 'gpt-test', body: 'x' }))])).toMatch(
      /at interactions\[0\]\.match_key\.body: a match key has a model call's fields \(here "model"\) or the "body" of another request, not both/,
    );
    expect(await problemOf([{ ...interaction(), request: { ...interaction().request, note: 'x' } }])).toMatch(
      /at interactions\[0\]\.request\.note: unknown key "note"/,
    );
  });

  it('fails a replay of a response header fetch cannot carry with CASSETTE_INVALID, not drift', async () => {
    provider = await startFakeProvider();
    const dir = tempDir({ 'agent.yaml': agentYaml(provider.origin), 'refund.scenario.yaml': scenarioYaml() });
    const cassettes = join(dir, 'cassettes');
    expect((await runShopSuite(dir, { mode: 'record', dir: cassettes }))[0].status).toBe('pass');
    const file = cassettePath(cassettes, 'refund.scenario.yaml#refund', 'base', 0);
    const cassette = JSON.parse(readFileSync(file, 'utf8')) as Cassette;
    cassette.interactions[1].response.headers['x-note'] = '€';
    writeFileSync(file, JSON.stringify(cassette));
    const [row] = await runShopSuite(dir, { mode: 'replay', dir: cassettes });
    expect(row.error?.type, row.error?.message).toBe('CASSETTE_INVALID');
    expect(row.error?.message).toContain('at interactions[1].response.headers.x-note: a header value cannot hold U+20AC');
  });
});
