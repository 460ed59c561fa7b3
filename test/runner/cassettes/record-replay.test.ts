import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Cassette } from '../../../src/runner/cassettes/cassette.js';
import { cassettePath } from '../../../src/runner/cassettes/cassette-path.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { startFakeProvider, type FakeProvider } from './fake-provider.js';
import { agentYaml, runShopSuite, scenarioYaml, SECRETS, stableRow } from './shop-suite.js';

const ID = 'refund.scenario.yaml#refund';
let provider: FakeProvider | undefined;

afterEach(async () => {
  await provider?.close().catch(() => undefined);
  provider = undefined;
});

async function setUp(extra = '') {
  provider = await startFakeProvider();
  const dir = tempDir({ 'agent.yaml': agentYaml(provider.origin), 'refund.scenario.yaml': scenarioYaml(extra) });
  return { dir, cassettes: join(dir, 'cassettes'), provider };
}

function readCassette(path: string): Cassette {
  return JSON.parse(readFileSync(path, 'utf8')) as Cassette;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('cassettes: record then replay', () => {
  it('records real traffic, then replays it offline with identical rows', async () => {
    const { dir, cassettes, provider: live } = await setUp();
    const recorded = await runShopSuite(dir, { mode: 'record', dir: cassettes });
    expect(recorded[0].status, recorded[0].reason).toBe('pass');
    // Three model calls and one http tool call really reached the server, with the key.
    expect(live.seen.map((request) => request.url.split('?')[0])).toEqual([
      '/v1/chat/completions',
      '/shop/orders/1234',
      '/v1/chat/completions',
      '/v1/chat/completions',
    ]);
    expect(live.seen[0].headers.authorization).toBe(`Bearer ${SECRETS.openaiKey}`);

    const path = cassettePath(cassettes, ID, 'base', 0);
    const cassette = readCassette(path);
    expect(cassette).toMatchObject({ schema: 'agentcheck.cassette/1', scenario: ID, variant: 'base', repeat: 0 });
    expect(cassette.interactions).toHaveLength(4);
    const [first, tool] = cassette.interactions;
    expect(first.match_key).toMatchObject({ method: 'POST', model: 'gpt-test', parameters: { temperature: 0 } });
    expect((first.match_key.tools as Array<{ description: string }>)[0].description).toBe('Look an order up by its id.');
    expect(first.response).toMatchObject({ status: 200, body_type: 'json', body: { id: 'chatcmpl-1' } });
    expect(tool.request.url).toBe(`${live.origin}/shop/orders/1234?api_key=%5Bredacted%5D&view=full`);

    await live.close();
    // No key in the environment: a replay needs none, and the server is gone.
    const replayed = await runShopSuite(dir, { mode: 'replay', dir: cassettes }, {});
    expect(replayed.map(stableRow)).toEqual(recorded.map(stableRow));
    expect(readCassette(path)).toEqual(cassette);
  });

  it('reports a changed tool description as drift naming the field', async () => {
    const { dir, cassettes, provider: live } = await setUp();
    expect((await runShopSuite(dir, { mode: 'record', dir: cassettes }))[0].status).toBe('pass');
    const before = live.seen.length;
    writeFileSync(join(dir, 'refund.scenario.yaml'), scenarioYaml('delta: {set: {"agent.tools[name=lookup_order].description": "Find an order."}}\n'));

    const [row] = await runShopSuite(dir, { mode: 'replay', dir: cassettes });
    expect(row.status).toBe('error');
    expect(row.error?.type).toBe('CASSETTE_DRIFT');
    expect(row.error?.message).toContain('tools[0].description differs');
    expect(row.error?.message).toContain('recorded "Look an order up by its id.", now "Find an order."');
    expect(row.error?.message).toContain(cassettePath(cassettes, ID, 'base', 0));
    expect(live.seen.length).toBe(before); // never a silent live call
  });

  it('shows longer changed instructions as quoted strings, the cut marks outside the quotes', async () => {
    const { dir, cassettes } = await setUp();
    expect((await runShopSuite(dir, { mode: 'record', dir: cassettes }))[0].status).toBe('pass');
    const longer = 'You handle refunds for the shop, politely, and always confirm the refund id before you close.';
    writeFileSync(join(dir, 'refund.scenario.yaml'), scenarioYaml(`delta: {set: {"agent.instructions": "${longer}"}}\n`));

    const [row] = await runShopSuite(dir, { mode: 'replay', dir: cassettes });
    expect(row.error?.type).toBe('CASSETTE_DRIFT');
    expect(row.error?.message).toMatch(
      /messages\[0\]\.content differs from the closest recorded request, interactions\[0\] \(recorded "You handle refunds\. Look the order up first\.", now "You handle refunds for the shop, [^"]*"\.\.\.\); re-record/,
    );
  });

  it('names the first differing field of a changed message and parameter', async () => {
    const { dir, cassettes } = await setUp();
    await runShopSuite(dir, { mode: 'record', dir: cassettes });
    writeFileSync(join(dir, 'refund.scenario.yaml'), scenarioYaml('delta: {set: {agent: {llm: {parameters: {temperature: 0.5}}}}}\n'));
    const [changedParameter] = await runShopSuite(dir, { mode: 'replay', dir: cassettes });
    expect(changedParameter.error?.message).toContain('parameters.temperature differs');

    writeFileSync(join(dir, 'refund.scenario.yaml'), scenarioYaml().replace('arrived broken', 'arrived late'));
    const [changedMessage] = await runShopSuite(dir, { mode: 'replay', dir: cassettes });
    expect(changedMessage.error?.type).toBe('CASSETTE_DRIFT');
    expect(changedMessage.error?.message).toContain('messages[1].content differs');
  });

  it('reports a tool argument named constructor added since the recording as drift, never a crash', async () => {
    const { dir, cassettes, provider: live } = await setUp();
    expect((await runShopSuite(dir, { mode: 'record', dir: cassettes }))[0].status).toBe('pass');
    const before = live.seen.length;
    writeFileSync(join(dir, 'agent.yaml'), agentYaml(live.origin).replace('reason: {type: string}}', 'reason: {type: string}, constructor: {type: string}}'));
    const [row] = await runShopSuite(dir, { mode: 'replay', dir: cassettes });
    expect(row.error?.type, row.error?.message).toBe('CASSETTE_DRIFT');
    expect(row.error?.message).toContain('tools[1].parameters.properties.constructor differs from the closest recorded request');
    expect(row.error?.message).toContain('(recorded (absent), now {"type":"string"})');
    expect(live.seen.length).toBe(before);
  });

  it('reports a tool argument named __proto__ added since the recording as drift, never a match', async () => {
    const { dir, cassettes, provider: live } = await setUp();
    expect((await runShopSuite(dir, { mode: 'record', dir: cassettes }))[0].status).toBe('pass');
    const before = live.seen.length;
    writeFileSync(join(dir, 'agent.yaml'), agentYaml(live.origin).replace('reason: {type: string}}', 'reason: {type: string}, __proto__: {type: string}}'));
    const [row] = await runShopSuite(dir, { mode: 'replay', dir: cassettes });
    expect(row.error?.type, row.error?.message).toBe('CASSETTE_DRIFT');
    expect(row.error?.message).toContain('tools[1].parameters.properties.__proto__ differs from the closest recorded request');
    expect(live.seen.length).toBe(before);
  });

  it('sends, records, shows and matches a __proto__ key of parameters.extra as a key', async () => {
    const { dir, cassettes, provider: live } = await setUp();
    const withExtra = agentYaml(live.origin).replace('parameters: {temperature: 0}', 'parameters: {temperature: 0, extra: {__proto__: {mode: strict}}}');
    writeFileSync(join(dir, 'agent.yaml'), withExtra);
    const [recorded] = await runShopSuite(dir, { mode: 'record', dir: cassettes });
    expect(recorded.status, recorded.reason).toBe('pass');
    expect(live.seen[0].body).toContain('"__proto__":{"mode":"strict"}');
    expect(JSON.stringify(recorded.test_run?.resolved?.parameters)).toBe('{"temperature":0,"extra":{"__proto__":{"mode":"strict"}}}');
    expect(JSON.stringify(readCassette(cassettePath(cassettes, ID, 'base', 0)).interactions[0].match_key.parameters)).toBe(
      '{"temperature":0,"__proto__":{"mode":"strict"}}',
    );
    const before = live.seen.length;
    writeFileSync(join(dir, 'agent.yaml'), agentYaml(live.origin));
    const [row] = await runShopSuite(dir, { mode: 'replay', dir: cassettes });
    expect(row.error?.type, row.error?.message).toBe('CASSETTE_DRIFT');
    expect(row.error?.message).toContain('parameters.__proto__ differs from the closest recorded request');
    expect(live.seen.length).toBe(before);
  });

  it('says a cassette whose recorded requests are all used holds no more, not what a used one recorded', async () => {
    const { dir, cassettes, provider: live } = await setUp();
    await runShopSuite(dir, { mode: 'record', dir: cassettes });
    const file = cassettePath(cassettes, ID, 'base', 0);
    const saved = readCassette(file);
    saved.interactions.pop();
    writeFileSync(file, JSON.stringify(saved));
    const before = live.seen.length;
    const [row] = await runShopSuite(dir, { mode: 'replay', dir: cassettes });
    expect(row.error?.type).toBe('CASSETTE_DRIFT');
    expect(row.error?.message).toBe(
      `POST ${live.origin}/v1/chat/completions is not in the cassette ${file}, which holds no more recorded requests (all 3 were used); re-record it with --cassettes record`,
    );
    expect(live.seen.length).toBe(before);
  });

  it('fails a replay without a cassette with CASSETTE_MISSING and sends nothing', async () => {
    const { dir, cassettes, provider: live } = await setUp();
    const [row] = await runShopSuite(dir, { mode: 'replay', dir: cassettes });
    expect(row.status).toBe('error');
    expect(row.error?.type).toBe('CASSETTE_MISSING');
    expect(row.error?.message).toContain(cassettePath(cassettes, ID, 'base', 0));
    // A suite's runs are set by the CLI's flag: the message names it.
    expect(row.error?.message).toMatch(/; record it with --cassettes record \(or --cassettes auto\)$/);
    expect(live.seen).toHaveLength(0);
    expect(existsSync(cassettes)).toBe(false);
  });

  it('fails a replay of a damaged cassette with CASSETTE_INVALID, naming the file once and the field', async () => {
    const { dir, cassettes } = await setUp();
    const file = cassettePath(cassettes, ID, 'base', 0);
    await runShopSuite(dir, { mode: 'record', dir: cassettes });
    const saved = readCassette(file) as unknown as Record<string, unknown>;
    delete saved.scenario;
    writeFileSync(file, JSON.stringify(saved));
    const [row] = await runShopSuite(dir, { mode: 'replay', dir: cassettes });
    expect(row.error?.type).toBe('CASSETTE_INVALID');
    expect(row.error?.message).toMatch(/^cannot replay the cassette: .*missing required key "scenario"/);
    expect(row.error?.message.split(file)).toHaveLength(2);
  });

  it('auto records a run without a cassette, then replays it', async () => {
    const { dir, cassettes, provider: live } = await setUp();
    const first = await runShopSuite(dir, { mode: 'auto', dir: cassettes });
    expect(first[0].status, first[0].reason).toBe('pass');
    expect(live.seen).toHaveLength(4);
    const path = cassettePath(cassettes, ID, 'base', 0);
    const written = readFileSync(path, 'utf8');

    const second = await runShopSuite(dir, { mode: 'auto', dir: cassettes });
    expect(live.seen).toHaveLength(4); // everything came from the cassette
    expect(second.map(stableRow)).toEqual(first.map(stableRow));
    expect(readFileSync(path, 'utf8')).toBe(written); // nothing new, nothing rewritten
  });

  it('auto keeps a recorded cassette when the run that drifted from it ended in an error (the provider was down)', async () => {
    provider = await startFakeProvider();
    const judge = `    - judge: {rubric: says the refund was created, model: {provider: openai, model: grader, base_url: "${provider.origin}/v1"}}\n`;
    const dir = tempDir({ 'agent.yaml': agentYaml(provider.origin), 'refund.scenario.yaml': scenarioYaml(judge) });
    const cassettes = join(dir, 'cassettes');
    await runShopSuite(dir, { mode: 'auto', dir: cassettes });
    const path = cassettePath(cassettes, ID, 'base', 0);
    const written = readFileSync(path, 'utf8');
    // The agent's instructions changed (drift) and its provider is down; the grader still answers.
    const down = agentYaml('http://127.0.0.1:9')
      .replace('Look the order up first.', 'Be quick.')
      .replace('parameters: {temperature: 0}', 'max_retries: 0, parameters: {temperature: 0}');
    writeFileSync(join(dir, 'agent.yaml'), down);
    const [row] = await runShopSuite(dir, { mode: 'auto', dir: cassettes });
    expect(row.status).toBe('error');
    expect(readFileSync(path, 'utf8')).toBe(written);
  });

  it('auto re-records from the first request that drifted and keeps the file in step with the run', async () => {
    const { dir, cassettes, provider: live } = await setUp();
    await runShopSuite(dir, { mode: 'record', dir: cassettes });
    writeFileSync(join(dir, 'refund.scenario.yaml'), scenarioYaml('delta: {set: {"agent.tools[name=create_refund].description": "Refund it."}}\n'));
    const [row] = await runShopSuite(dir, { mode: 'auto', dir: cassettes });
    expect(row.status, row.reason).toBe('pass');
    // The three model calls changed (new tool description) and went live; the shop call replayed.
    expect(live.seen).toHaveLength(4 + 3);
    const cassette = readCassette(cassettePath(cassettes, ID, 'base', 0));
    expect(cassette.interactions).toHaveLength(4);
    expect((cassette.interactions[0].match_key.tools as Array<{ description: string }>)[1].description).toBe('Refund it.');
  });

  it('keeps each run (scenario x variant x repeat) in its own cassette, also when they run at once', async () => {
    const { dir, cassettes } = await setUp();
    const rows = await runShopSuite(dir, { mode: 'record', dir: cassettes }, { OPENAI_API_KEY: SECRETS.openaiKey }, 3);
    expect(rows.map((row) => row.status)).toEqual(['pass', 'pass', 'pass']);
    const ids = [0, 1, 2].map((repeat) => readCassette(cassettePath(cassettes, ID, 'base', repeat)).interactions[0].response.body as { id: string });
    // Each recording got its own responses from the server (ids come from a counter).
    expect(new Set(ids.map((body) => body.id)).size).toBe(3);
    for (const repeat of [0, 1, 2]) expect(readCassette(cassettePath(cassettes, ID, 'base', repeat)).interactions).toHaveLength(4);
    await provider?.close();
    const replayed = await runShopSuite(dir, { mode: 'replay', dir: cassettes }, {}, 3);
    expect(replayed.map(stableRow)).toEqual(rows.map(stableRow));
  });

  it('lets scenario mocks win over the cassette', async () => {
    const {
      dir,
      cassettes,
      provider: live,
    } = await setUp('mocks:\n  http: [{method: GET, url: "*/shop/orders/*", json: {id: "1234", status: delivered, damaged: true}}]\n');
    const [row] = await runShopSuite(dir, { mode: 'record', dir: cassettes });
    expect(row.status, row.reason).toBe('pass');
    expect(live.seen.map((request) => request.url)).not.toContain('/shop/orders/1234');
    const urls = readCassette(cassettePath(cassettes, ID, 'base', 0)).interactions.map((interaction) => interaction.request.url);
    expect(urls).toHaveLength(3);
    expect(urls.every((url) => url.endsWith('/v1/chat/completions'))).toBe(true);
  });

  it('never writes a secret into a cassette file', async () => {
    const { dir, cassettes } = await setUp();
    await runShopSuite(dir, { mode: 'record', dir: cassettes }, { OPENAI_API_KEY: SECRETS.openaiKey }, 2);
    const files = filesUnder(cassettes);
    expect(files).toHaveLength(2);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const secret of Object.values(SECRETS)) expect(text, `${secret} in ${file}`).not.toContain(secret);
      expect(text).not.toMatch(/"(authorization|x-api-key|cookie|set-cookie)"/i);
      // The key the shop echoed in its body is scrubbed, the rest of the body kept.
      expect(text).toContain('"echoed_key": "[redacted]"');
    }
  });

  it('writes nothing for a run that sent no request (a scripted model)', async () => {
    const dir = tempDir({
      'agent.yaml':
        'id: s\nagent:\n  name: S\n  llm: {provider: scripted, model: s}\n  tools: [{name: finish, description: Finish., parameters: {type: object}, returns: {ok: true}}]\n',
      'scripted.scenario.yaml':
        'name: scripted\nagent: agent.yaml\ninputs: {messages: [{role: user, content: go}]}\nmodel: {script: [{tool_calls: [{name: finish, args: {}}]}, {text: done}]}\nexpect: {terminal_tool: finish}\n',
    });
    const cassettes = join(dir, 'cassettes');
    expect((await runShopSuite(dir, { mode: 'record', dir: cassettes }))[0].status).toBe('pass');
    expect((await runShopSuite(dir, { mode: 'replay', dir: cassettes }))[0].status).toBe('pass');
    expect(existsSync(cassettes)).toBe(false);
  });
});
