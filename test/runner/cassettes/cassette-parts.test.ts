import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MatchKey } from '../../../src/runner/cassettes/cassette.js';
import { cassettePath, safeSegment } from '../../../src/runner/cassettes/cassette-path.js';
import { resolveCassetteSettings } from '../../../src/runner/cassettes/cassette-settings.js';
import { closestKey, compareKeys } from '../../../src/runner/cassettes/drift.js';
import { previewDifference } from '../../../src/runner/cassettes/drift-preview.js';
import { toResponse } from '../../../src/runner/cassettes/exchange.js';
import { matchKey } from '../../../src/runner/cassettes/match-key.js';
import { toResponsesTool } from '../../../src/engine/providers/openai-responses/responses-input.js';
import { SecretStripper } from '../../../src/runner/cassettes/secret-stripper.js';
import { tempDir } from '../../helpers/temp-dir.js';

describe('cassette paths', () => {
  it('keeps safe names and makes scenario ids safe, with a hash against collisions', () => {
    expect(safeSegment('base')).toBe('base');
    expect(safeSegment('lean-13_tools.v2')).toBe('lean-13_tools.v2');
    expect(safeSegment('support/refund.scenario.yaml#refund works')).toMatch(/^support-refund\.scenario\.yaml-refund-works-[0-9a-f]{8}$/);
    expect(safeSegment('a b')).not.toBe(safeSegment('a/b'));
    expect(safeSegment('../..')).toMatch(/^[0-9a-f]{8}$/);
    expect(safeSegment('x'.repeat(300)).length).toBeLessThanOrEqual(89);
    expect(cassettePath('/c', 's.scenario.yaml#n', 'base', 2)).toBe(`/c/${safeSegment('s.scenario.yaml#n')}/base/2.json`);
  });

  it('resolves mode and folder: the flag wins, the default is off under fixtures/cassettes', () => {
    expect(resolveCassetteSettings(undefined, undefined, '/suite')).toEqual({ mode: 'off', dir: '/suite/fixtures/cassettes' });
    expect(resolveCassetteSettings(undefined, { mode: 'auto', dir: '/tapes' }, '/suite')).toEqual({ mode: 'auto', dir: '/tapes' });
    expect(resolveCassetteSettings('replay', { mode: 'record' }, '/suite')).toEqual({ mode: 'replay', dir: '/suite/fixtures/cassettes' });
    expect(() => resolveCassetteSettings('rewind', undefined, '/suite')).toThrow(/unknown cassette mode "rewind"/);
  });

  it('refuses, before any run, a cassettes folder that a file stands in the way of (unless cassettes are off)', () => {
    const dir = tempDir({ 'tapes.txt': 'x', 'fixtures/cassettes': 'not a folder' });
    expect(() => resolveCassetteSettings('record', { dir: join(dir, 'tapes.txt') }, dir)).toThrow(
      `${join(dir, 'tapes.txt')}: cassettes.dir must be a folder, but this is a file, not a folder`,
    );
    expect(() => resolveCassetteSettings(undefined, { mode: 'replay', dir: join(dir, 'tapes.txt/more') }, dir)).toThrow(
      `cassettes.dir must be a folder, but ${join(dir, 'tapes.txt')}, above it, is a file, not a folder`,
    );
    expect(() => resolveCassetteSettings('auto', undefined, dir)).toThrow('the default cassettes folder (fixtures/cassettes) must be a folder');
    expect(resolveCassetteSettings('off', { dir: join(dir, 'tapes.txt') }, dir).mode).toBe('off');
    expect(resolveCassetteSettings('record', { dir: join(dir, 'new/folder') }, dir).dir).toBe(join(dir, 'new/folder'));
  });
});

describe('secret stripping', () => {
  it('drops credential headers and remembers their values for scrubbing', () => {
    const stripper = new SecretStripper();
    const headers = stripper.headers(
      new Headers({
        authorization: 'Bearer sk-live-abcdef123',
        'x-api-key': 'anthropic-key-9876543',
        'api-key': 'azure-key-55555555',
        cookie: 'sid=cookie-value-123',
        'content-type': 'application/json',
        'x-ratelimit-remaining-tokens': '149000',
      }),
    );
    // A token counter header is not a credential: it stays.
    expect(headers).toEqual({ 'content-type': 'application/json', 'x-ratelimit-remaining-tokens': '149000' });
    expect(stripper.text('{"echo":"sk-live-abcdef123","also":"Bearer sk-live-abcdef123"}')).toBe('{"echo":"[redacted]","also":"[redacted]"}');
    // A token counter is not a credential: its value stays where it appears.
    expect(stripper.text('149000 tokens left')).toBe('149000 tokens left');
  });

  it('keeps a header named __proto__ as a header', () => {
    expect(JSON.stringify(new SecretStripper().headers(new Headers([['__proto__', 'x']])))).toBe('{"__proto__":"x"}');
  });

  it('drops and keeps the headers docs/cassettes.md names as it says', () => {
    const doc = readFileSync(join(import.meta.dirname, '../../../docs/cassettes.md'), 'utf8').replace(/\s+/g, ' ');
    const examples = /\(`(x-[a-z-]+)` and `(x-[a-z-]+)` are dropped; `(x-[a-z-]+)`, [^)]*is kept/.exec(doc);
    const shortValue = /for headers dropped only for their name's words \(`(x-[a-z-]+)`/.exec(doc);
    expect(examples, 'the headers bullet of docs/cassettes.md').not.toBeNull();
    expect(shortValue, 'the 16-character sentence of docs/cassettes.md').not.toBeNull();
    const [, droppedA, droppedB, kept] = examples!;
    const stripper = new SecretStripper();
    const headers = stripper.headers(new Headers({ [droppedA]: 'value-0123456789abcdef', [droppedB]: 'value-0123456789abcdef', [kept]: '12345' }));
    expect(headers).toEqual({ [kept]: '12345' });
    // The example of a name-only secret header is a dropped header whose short value stays in text.
    const named = shortValue![1];
    expect(stripper.headers(new Headers({ [named]: 'short-1234' }))).toEqual({});
    expect(stripper.text('short-1234 in a body')).toBe('short-1234 in a body');
  });

  it('replaces key-like query values, sorts the query and drops user info', () => {
    const stripper = new SecretStripper();
    const url = stripper.url('https://user:pass-word-123@api.test/v1/x?z=1&key=AIza-google-key&api_key=k-123456789&access_token=tok-123456789&a=2');
    expect(url).toBe('https://api.test/v1/x?a=2&access_token=%5Bredacted%5D&api_key=%5Bredacted%5D&key=%5Bredacted%5D&z=1');
    expect(stripper.text('body with AIza-google-key')).toBe('body with [redacted]');
  });

  it('scrubs the values of secret-named environment variables, also URL-encoded', () => {
    const stripper = new SecretStripper({ OPENAI_API_KEY: 'sk-env/secret+1', HOME: '/home/someone', SHORT_TOKEN: 'abc' });
    expect(stripper.text('sk-env/secret+1 and sk-env%2Fsecret%2B1 at /home/someone abc')).toBe('[redacted] and [redacted] at /home/someone abc');
  });

  it('scrubs the other URL spellings too: lower-case escapes and + for a space', () => {
    const stripper = new SecretStripper({ DB_PASSWORD: 'abc def/ghi12345' });
    expect(stripper.text('a=abc+def%2Fghi12345 b=abc%20def%2fghi12345 c=abc+def%2fghi12345')).toBe('a=[redacted] b=[redacted] c=[redacted]');
  });
});

describe('match keys and drift', () => {
  const openai = (description: string, extra: Record<string, unknown> = {}) =>
    matchKey({
      method: 'post',
      url: 'https://api.openai.com/v1/chat/completions',
      headers: {},
      body: {
        model: 'gpt-4.1-mini',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'hi' },
        ],
        tools: [{ type: 'function', function: { name: 'lookup', description, parameters: { type: 'object' } } }],
        temperature: 0,
        ...extra,
      },
    });

  it('splits a model call into model, messages, tools and parameters', () => {
    expect(openai('Look up.')).toEqual({
      method: 'POST',
      url: 'https://api.openai.com/v1/chat/completions',
      model: 'gpt-4.1-mini',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hi' },
      ],
      tools: [{ name: 'lookup', description: 'Look up.', parameters: { type: 'object' } }],
      parameters: { temperature: 0 },
    });
  });

  it('gives Anthropic tools the same shape and keeps system apart', () => {
    const key = matchKey({
      method: 'POST',
      url: 'https://api.anthropic.com/v1/messages',
      headers: {},
      body: {
        model: 'claude',
        system: 'Be brief.',
        max_tokens: 100,
        messages: [],
        tools: [{ name: 'lookup', description: 'Look up.', input_schema: { type: 'object' } }],
      },
    });
    expect(key).toMatchObject({
      system: 'Be brief.',
      tools: [{ name: 'lookup', description: 'Look up.', parameters: { type: 'object' } }],
      parameters: { max_tokens: 100 },
    });
  });

  it('gives Responses tools, as the provider sends them (strict: false), the same shape as the others', () => {
    const tool = toResponsesTool({ name: 'lookup', description: 'Look up.', parameters: { type: 'object' } });
    expect(tool).toHaveProperty('strict', false);
    const key = matchKey({
      method: 'POST',
      url: 'https://api.openai.com/v1/responses',
      headers: {},
      body: { model: 'gpt', instructions: 'Be brief.', input: [], tools: [tool] },
    });
    expect(key.tools).toEqual([{ name: 'lookup', description: 'Look up.', parameters: { type: 'object' } }]);
    expect(key).toMatchObject({ system: 'Be brief.', messages: [], parameters: {} });
  });

  it('keeps a non-model body whole and omits an empty one', () => {
    expect(matchKey({ method: 'POST', url: 'https://shop.test/refunds', headers: {}, body: { order_id: '1' } })).toEqual({
      method: 'POST',
      url: 'https://shop.test/refunds',
      body: { order_id: '1' },
    });
    expect(matchKey({ method: 'GET', url: 'https://shop.test/x', headers: {} })).toEqual({ method: 'GET', url: 'https://shop.test/x' });
  });

  it('quotes a differing key holding a dot or white space in brackets, as every path agentcheck prints', () => {
    const body = (value: string) => matchKey({ method: 'POST', url: 'https://shop.test/x', headers: {}, body: { 'order.id': value, 'a b': { c: 1 } } });
    expect(compareKeys(body('1'), body('2')).difference?.path).toBe('body["order.id"]');
  });

  it('names the first differing field in request order', () => {
    expect(compareKeys(openai('Look up.'), openai('Look up.')).difference).toBeNull();
    expect(compareKeys(openai('Look up.'), openai('Find.')).difference).toEqual({ path: 'tools[0].description', recorded: 'Look up.', actual: 'Find.' });
    expect(compareKeys(openai('a'), openai('a', { temperature: 0.7 })).difference?.path).toBe('parameters.temperature');
    expect(compareKeys(openai('a'), openai('a', { model: 'gpt-5' })).difference?.path).toBe('model');
    expect(
      compareKeys(
        openai('a'),
        openai('a', {
          messages: [
            { role: 'system', content: 'Be brief.' },
            { role: 'user', content: 'hello' },
          ],
        }),
      ).difference?.path,
    ).toBe('messages[1].content');
    const extraMessage = openai('a', {
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hi' },
        { role: 'user', content: 'more' },
      ],
    });
    expect(compareKeys(openai('a'), extraMessage).difference).toMatchObject({ path: 'messages[2]', recorded: undefined });
    // The URL comes before anything in the body.
    const elsewhere: MatchKey = { ...openai('Find.'), url: 'https://other.test/v1/chat/completions' };
    expect(compareKeys(openai('Look up.'), elsewhere).difference?.path).toBe('url');
  });

  it('picks the recorded request that agrees longest, the earliest on a tie', () => {
    const recorded = [openai('a', { model: 'other' }), openai('a'), openai('a')];
    const best = closestKey(recorded, [0, 1, 2], openai('b'));
    expect(best?.index).toBe(1);
    expect(best?.comparison.difference?.path).toBe('tools[0].description');
  });
});

describe('replayed responses', () => {
  it('re-serialises JSON bodies, sends text as is and gives null-body statuses no body', async () => {
    const json = toResponse({ status: 201, headers: { 'content-type': 'application/json' }, body: { ok: true }, body_type: 'json' });
    expect(json.status).toBe(201);
    expect(await json.json()).toEqual({ ok: true });
    expect(await toResponse({ status: 200, headers: {}, body: '{not json', body_type: 'text' }).text()).toBe('{not json');
    expect(toResponse({ status: 204, headers: {}, body: '', body_type: 'text' }).body).toBeNull();
  });
});

describe('drift excerpts', () => {
  it('show where two long texts differ, not the start they share', () => {
    const rubric = `<rubric>\nThe reply confirms the refund by its id "r1" and apologises ("sorry") for the broken order.`;
    const [recorded, now] = previewDifference(rubric, rubric.replace(/\.$/, '!'));
    expect([recorded, now]).toEqual(['..."for the broken order."', '..."for the broken order!"']);
    // Short values, or a difference near the start, read as before.
    expect(previewDifference('Look up.', 'Find.')).toEqual(['"Look up."', '"Find."']);
    expect(previewDifference(undefined, 'x')).toEqual(['(absent)', '"x"']);
  });

  it('always show a string quoted, the cut marks outside the quotes', () => {
    const longer = 'You handle refunds for the shop, politely, and always confirm the refund id to the customer before closing.';
    const [recorded, now] = previewDifference('You handle refunds.', longer);
    expect(recorded).toBe('"You handle refunds."');
    expect(now).toMatch(/^"You handle refunds for the shop, .*"\.\.\.$/);
    expect(now.length).toBeLessThanOrEqual(80);
    expect(JSON.parse(now.slice(0, -3))).toBe(longer.slice(0, JSON.parse(now.slice(0, -3)).length));

    // A difference in the middle of two long texts: both cut on both sides, each still a JSON string.
    const skill = (word: string) =>
      `${'Intro text. '.repeat(10)}<skill>\n<name>pay</name>\n<description>Use ${word} for refunds.</description>\n</skill>\n${'More text. '.repeat(20)}`;
    const [before, after] = previewDifference(skill('alpha'), skill('beta'));
    for (const shown of [before, after]) {
      expect(shown).toMatch(/^\.\.\."[^]*"\.\.\.$/);
      expect(shown.length).toBeLessThanOrEqual(80);
      expect(typeof JSON.parse(shown.slice(3, -3))).toBe('string');
    }
    expect(before).toContain('Use alpha for refunds.</description>\\n</skill>');
    expect(after).toContain('Use beta for refunds.</description>\\n</skill>');
  });

  it('counts an escaped character as wide as it is shown, and cuts no character in half', () => {
    const [recorded] = previewDifference('\n'.repeat(100), `${'\n'.repeat(99)}x`);
    expect(recorded.length).toBeLessThanOrEqual(80);
    expect(recorded).toMatch(/^\.\.\."(\\n)+"$/);
    const emoji = '😀'.repeat(60);
    const [a, b] = previewDifference(`${emoji}a`, `${emoji}b`);
    expect(JSON.parse(a.slice(3))).toMatch(/^(😀)+a$/u);
    expect(JSON.parse(b.slice(3))).toMatch(/^(😀)+b$/u);
  });

  it('cuts a long non-string value as JSON, with the marks outside', () => {
    const [recorded, now] = previewDifference({ a: 'x'.repeat(100) }, { a: 'y'.repeat(100) });
    expect(recorded).toMatch(/^\{"a":"x+\.\.\.$/);
    expect(now).toMatch(/^\{"a":"y+\.\.\.$/);
  });
});
