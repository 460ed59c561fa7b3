import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigErrors } from '../../../src/config/errors.js';
import { loadScenarioFile } from '../../../src/runner/scenario/load-scenario-file.js';
import { runScenario } from '../../../src/runner/scenario/run-scenario.js';
import { executeTestRun, type TestRunRequest } from '../../../src/runner/test-run.js';
import { configErrorOf } from '../../helpers/config-error.js';
import { tempDir } from '../../helpers/temp-dir.js';

const agentFile = join(import.meta.dirname, '../../../fixtures/agents/support-bot.yaml');
const refund = (reason: string) => ({ name: 'create_refund', args: { order_id: '1234', reason } });

/** Runs create_refund once per reason and returns what each call returned, in order. */
async function refundResults(reasons: string[], mocks: TestRunRequest['mocks']): Promise<{ results: unknown[]; unmatched: string[] }> {
  const record = await executeTestRun({
    agent: agentFile,
    inputs: { messages: [{ role: 'user', content: 'refund' }] },
    mocks,
    script: [...reasons.map((reason) => ({ tool_calls: [refund(reason)] })), { text: 'done' }],
  });
  await record.workspace.dispose();
  return { results: record.evidence.calls.map((call) => call.result), unmatched: record.unmatched.map((u) => u.request + u.hint) };
}

describe('mock response sequences', () => {
  it('answers in order, then repeats the last answer', async () => {
    const { results } = await refundResults(['damaged', 'damaged', 'damaged'], {
      http: [{ method: 'POST', url: 'https://shop.test/refunds', responses: [{ status: 503, body: 'try later' }, { json: { ok: true, id: 'r1' } }] }],
    });
    expect(results).toEqual([
      { status: 503, body: 'try later' },
      { ok: true, id: 'r1' },
      { ok: true, id: 'r1' },
    ]);
  });

  it("keeps each run's place in the sequence apart when runs share the mocks", async () => {
    const mocks = { http: [{ url: 'https://shop.test/refunds', responses: [{ json: { n: 1 } }, { json: { n: 2 } }] }] };
    const [a, b] = await Promise.all([refundResults(['late', 'late'], mocks), refundResults(['late'], mocks)]);
    expect(a.results).toEqual([{ n: 1 }, { n: 2 }]);
    expect(b.results).toEqual([{ n: 1 }]);
  });

  it('answers statuses a plain Response refuses (a 204 given a body) and any status with json', async () => {
    const { results } = await refundResults(['damaged', 'late'], {
      http: [
        { method: 'POST', url: 'https://shop.test/refunds', match: { json: { reason: 'damaged' } }, status: 204, body: '' },
        { method: 'POST', url: 'https://shop.test/refunds', status: 201, json: { id: 'r2' } },
      ],
    });
    expect(results).toEqual(['', { id: 'r2' }]);
  });
});

describe('mock matching on the request body', () => {
  const byReason = {
    http: [
      { method: 'POST', url: 'https://shop.test/refunds', match: { json: { reason: 'damaged', order_id: { $regex: '^\\d+$' } } }, json: { id: 'for-damaged' } },
      { method: 'POST', url: 'https://shop.test/refunds', match: { body: { $regex: '"reason":"late"' } }, json: { id: 'for-late' } },
    ],
  };

  it('answers with the first mock whose match the body satisfies (listed keys; others may be there)', async () => {
    const { results, unmatched } = await refundResults(['late', 'damaged'], byReason);
    expect(results).toEqual([{ id: 'for-late' }, { id: 'for-damaged' }]);
    expect(unmatched).toEqual([]);
  });

  it('a request whose body no mock matches is unmatched, with the reason of the first mock on its route', async () => {
    const { unmatched } = await refundResults(['other'], byReason);
    expect(unmatched).toEqual([
      'POST https://shop.test/refunds (mocks.http[0] has this route, but its match json: at reason: expected "damaged", got "other")',
    ]);
  });
});

describe('mock validation at load', () => {
  function loadError(mocks: string) {
    const dir = tempDir({
      'x.scenario.yaml': `name: m\nagent: ${agentFile}\ninputs: {messages: [{role: user, content: hi}]}\nmocks:\n  http:\n${mocks}`,
    });
    return configErrorOf(() => loadScenarioFile({ file: join(dir, 'x.scenario.yaml'), root: dir }, { agents: new Map() }));
  }

  it('refuses a url no request can have, keeping exact URLs and * patterns (also for any origin)', () => {
    const bad = loadError('    - {url: "not a url", json: {}}\n');
    expect(bad.path).toBe('mocks.http[0].url');
    expect(bad.line).toBe(6);
    expect(bad.expected).toBe(
      'expected an absolute http(s) URL, exact or with * wildcards (https://api.test/orders/*, or */orders/* for any origin), got "not a url": it can match no request',
    );
    expect(loadError('    - {url: "ftp://files.test/a", json: {}}\n').path).toBe('mocks.http[0].url');
    const dir = tempDir({
      'x.scenario.yaml': `name: m\nagent: ${agentFile}\ninputs: {messages: [{role: user, content: hi}]}\nmocks:\n  http:\n    - {url: "https://a.test/1", json: {}}\n    - {url: "https://*.test/orders/*", json: {}}\n    - {url: "*/shop/orders/*", json: {}}\n`,
    });
    expect(() => loadScenarioFile({ file: join(dir, 'x.scenario.yaml'), root: dir }, { agents: new Map() })).not.toThrow();
  });

  it('refuses an exact url fetch never sends as written, naming the form it sends; a * may stand for a scheme letter', () => {
    const cases = {
      'https://shop.test': 'https://shop.test/',
      'https://SHOP.test/x': 'https://shop.test/x',
      'https://shop.test:443/x': 'https://shop.test/x',
      'https://shop.test/a b': 'https://shop.test/a%20b',
      'https://shop.test/café': 'https://shop.test/caf%C3%A9',
    };
    for (const [url, sent] of Object.entries(cases)) {
      expect(loadError(`    - {url: "${url}", json: {}}\n`).expected).toBe(
        `expected the URL as fetch sends it, "${sent}", got "${url}": as written it can match no request`,
      );
    }
    const dir = tempDir({
      'x.scenario.yaml': `name: m\nagent: ${agentFile}\ninputs: {messages: [{role: user, content: hi}]}\nmocks:\n  http:\n    - {url: "http*://shop.test/orders/1", json: {}}\n    - {url: "https://shop.test*", json: {}}\n`,
    });
    expect(() => loadScenarioFile({ file: join(dir, 'x.scenario.yaml'), root: dir }, { agents: new Map() })).not.toThrow();
    // Patterns: a character fetch always escapes, an origin not written as fetch sends it, credentials.
    expect(loadError('    - {url: "*/orders 1*", json: {}}\n').expected).toBe(
      'expected a URL pattern as fetch sends URLs, got "*/orders 1*": it holds a character fetch always percent-encodes (a space, a quote, < or >, a non-ASCII letter), so it can match no request',
    );
    expect(loadError('    - {url: "https://SHOP.test/*", json: {}}\n').expected).toBe(
      'expected the origin as fetch sends it, "https://shop.test", got "https://SHOP.test" in "https://SHOP.test/*": as written it can match no request',
    );
    expect(loadError('    - {url: "https://shop.test:443/*", json: {}}\n').expected).toContain('expected the origin as fetch sends it, "https://shop.test"');
    expect(loadError('    - {url: "https://shop.test/a{b}/*", json: {}}\n').expected).toContain('its path holds {, }, a backtick or a . or .. segment');
    expect(loadError('    - {url: "*/x/../orders/*", json: {}}\n').expected).toContain('its path holds {, }, a backtick or a . or .. segment');
    expect(loadError('    - {url: "https://u:p@shop.test/x", json: {}}\n').expected).toBe(
      'expected a URL without user:password (fetch refuses to send one), got "https://u:[redacted]@shop.test/x"',
    );
  });

  it('quotes a refused url without its credentials, as a load error quotes llm.base_url', () => {
    const pattern = loadError('    - {url: "https://u:MOCKPASS12345678@SHOP.test/*", json: {}}\n').expected;
    expect(pattern).toBe(
      'expected the origin as fetch sends it, "https://shop.test", got "https://u:[redacted]@SHOP.test" in "https://u:[redacted]@SHOP.test/*": as written it can match no request',
    );
    const query = loadError('    - {url: "shop.test/x?token=MOCKTOKEN12345678", json: {}}\n').expected;
    expect(query).toContain('got "shop.test/x?token=[redacted]": it can match no request');
  });

  it('refuses responses together with a response key, json with body, and a bad matcher, each located', () => {
    const mixed = loadError('    - {url: "https://a.test/", status: 200, responses: [{status: 503}]}\n');
    expect(mixed.path).toBe('mocks.http[0].status');
    expect(mixed.line).toBe(6);
    expect(mixed.expected).toContain('a mock answers with "responses" (a sequence) or with its own status, json, body, headers, delay_ms, not both');
    const both = loadError('    - url: "https://a.test/"\n      responses: [{json: {}}, {json: {}, body: x}]\n');
    expect(both.path).toBe('mocks.http[0].responses[1].body');
    expect(both.expected).toBe('an answer has "json" or "body" (text), not both');
    const matcher = loadError('    - {url: "https://a.test/", match: {json: {id: {$regexp: x}}}}\n');
    expect(matcher.path).toBe('mocks.http[0].match.json.id.$regexp');
    const empty = loadError('    - {url: "https://a.test/", responses: []}\n');
    expect(empty.path).toBe('mocks.http[0].responses');
  });

  it('reports every mock problem in one pass, also beside a format typo in another mock', () => {
    const problems = loadError(
      [
        '    - {url: "https://a.test/1", json: {}, body: x}',
        '    - {url: "https://a.test/2", status: 200, responses: [{status: 503}]}',
        '    - {url: "https://a.test/3", match: {json: {id: {$regx: x}}}}',
        '    - {url: "https://a.test/4", stauts: 200}',
        '',
      ].join('\n'),
    );
    expect(problems).toBeInstanceOf(ConfigErrors);
    const all = (problems as ConfigErrors).errors;
    expect(all.map((error) => error.path)).toEqual(['mocks.http[0].body', 'mocks.http[1].status', 'mocks.http[2].match.json.id.$regx', 'mocks.http[3].stauts']);
    expect(all[2].expected).toContain('did you mean "$regex"?');
  });

  it('refuses answer headers fetch could not answer with, at the header (a mock and a responses item)', () => {
    const problems = loadError(
      [
        '    - {url: "https://a.test/1", headers: {"Bad H": x}, json: {}}',
        '    - {url: "https://a.test/2", headers: {X-Ok: "\u00e9\u2603"}}',
        '    - url: "https://a.test/3"',
        '      responses: [{status: 200}, {headers: {X-Line: "a\\nb", X-Fine: "caf\u00e9"}}]',
        '',
      ].join('\n'),
    );
    expect(problems).toBeInstanceOf(ConfigErrors);
    const all = (problems as ConfigErrors).errors;
    expect(all.map((error) => [error.path, error.line])).toEqual([
      ['mocks.http[0].headers["Bad H"]', 6],
      ['mocks.http[1].headers.X-Ok', 7],
      ['mocks.http[2].responses[1].headers.X-Line', 9],
    ]);
    expect(all[0].expected).toBe(
      'header name "Bad H" cannot be sent: it holds " "; expected an HTTP token: letters, digits and !#$%&\'*+-.^_`|~, no spaces or colons (e.g. X-Api-Key)',
    );
    expect(all[1].expected).toContain('a header value cannot hold U+2603 (character 2 of the value)');
    expect(all[2].expected).toContain('a header value cannot hold a line break (LF, character 2 of the value)');
  });

  it('a scenario run uses the sequence end to end', async () => {
    const dir = tempDir({
      'x.scenario.yaml': `name: retry
agent: ${agentFile}
inputs: {messages: [{role: user, content: refund}]}
mocks: {http: [{method: POST, url: "https://shop.test/refunds", responses: [{status: 503}, {status: 200, json: {ok: true}}]}]}
model: {script: [{tool_calls: [{name: create_refund, args: {order_id: "1", reason: late}}]}, {tool_calls: [{name: create_refund, args: {order_id: "1", reason: late}}]}, {text: done}]}
expect: {checks: [{tool_returned: {tool: create_refund, result: {ok: true}}}]}
`,
    });
    const [scenario] = loadScenarioFile({ file: join(dir, 'x.scenario.yaml'), root: dir }, { agents: new Map() });
    const row = await runScenario(scenario, { variant: 'base', revision: scenario.revision, repeat: 0 });
    expect(row.checks.map((check) => check.status)).toEqual(['pass']);
  });
});
