import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildEvidence } from '../../src/verdicts/evidence.js';
import { check, evidenceOf, invalid } from './check-helpers.js';
import { RunBuilder } from './span-builder.js';

const shop = evidenceOf([
  [
    { name: 'lookup_order', args: { order_id: '1234' } },
    { name: 'lookup_order', args: { order_id: '99' } },
  ],
  [{ name: 'send_email', args: { to: 'a@b.c', body: 'hi' } }],
]);

describe('tool_called', () => {
  it('passes when called at least once (default min 1)', () => {
    expect(check('tool_called', { tool: 'lookup_order' }, shop)).toMatchObject({
      id: 'tool_called#0',
      kind: 'tool_called',
      status: 'pass',
      reason: 'lookup_order was called 2 times (expected at least 1)',
    });
  });

  it("says the arguments and both bounds in its pass reason, as docs/verdicts.md's example shows", () => {
    const twice = evidenceOf([[{ name: 'lookup_order', args: { order_id: '1234' } }], [{ name: 'lookup_order', args: { order_id: '1234' } }]]);
    expect(check('tool_called', { tool: 'lookup_order', min: 1, max: 2, args: { order_id: '1234' } }, twice)).toMatchObject({
      status: 'pass',
      reason: 'lookup_order was called 2 times with matching arguments (expected 1 to 2)',
    });
  });

  it('fails naming what was seen', () => {
    const result = check('tool_called', { tool: 'create_refund' }, shop);
    expect(result).toMatchObject({
      status: 'fail',
      reason: 'expected create_refund to be called at least once; saw lookup_order x2, send_email x1',
      evidence: [],
    });
  });

  it('min and max', () => {
    expect(check('tool_called', { tool: 'lookup_order', min: 3 }, shop).reason).toBe(
      'expected lookup_order to be called at least 3 times; saw lookup_order x2, send_email x1',
    );
    expect(check('tool_called', { tool: 'lookup_order', max: 1 }, shop).reason).toBe('expected lookup_order to be called at most once; saw it 2 times');
    expect(check('tool_called', { tool: 'lookup_order', min: 0, max: 2 }, shop).status).toBe('pass');
  });

  it('args default to superset and name the first differing argument', () => {
    expect(check('tool_called', { tool: 'send_email', args: { to: 'a@b.c' } }, shop).status).toBe('pass');
    expect(check('tool_called', { tool: 'lookup_order', args: { order_id: '1234' }, max: 1 }, shop).reason).toBe(
      'lookup_order was called once with matching arguments (expected 1 to 1)',
    );
    const result = check('tool_called', { tool: 'send_email', args: { to: 'x@y.z' } }, shop);
    expect(result.reason).toBe(
      'expected send_email to be called at least once with matching arguments; saw lookup_order x2, send_email x1; closest: send_email call 3: argument "to": expected "x@y.z", got "a@b.c"',
    );
    expect(result.evidence).toHaveLength(1);
  });

  it('args_mode exact rejects extra arguments', () => {
    expect(check('tool_called', { tool: 'send_email', args: { to: 'a@b.c' }, args_mode: 'exact' }, shop).reason).toContain(
      'argument "body": not expected (got "hi")',
    );
  });

  it('/regex/ tool names', () => {
    expect(check('tool_called', { tool: '/^lookup_/', min: 2 }, shop).status).toBe('pass');
  });

  it('validates its parameters', () => {
    expect(invalid('tool_called', { tool: 'a', bogus: 1 })).toBe(
      'scenario.yaml at expect.checks[0].tool_called.bogus: unknown key "bogus"; expected one of: tool, min, max, args, args_mode, request, nested',
    );
    expect(invalid('tool_called', { min: 1 })).toContain('missing required key "tool"');
    expect(invalid('tool_called', { tool: 'a', args_mode: 'fuzzy' })).toContain('expected one of "exact" | "subset" | "superset" | "ignore"');
    expect(invalid('tool_called', { tool: '/(a+)+/' })).toContain('nested quantifier');
    expect(invalid('tool_called', { tool: 'a', min: 2, max: 1 })).toContain('max (1) is below min (2)');
    expect(invalid('tool_called', { tool: 'a', max: 0 })).toContain(
      'max (0) is below min (1); for a tool that must not be called use tool_not_called, or give min: 0',
    );
    expect(invalid('tool_called', { tool: 'a', args: { x: { $regex: '(a|a)*' } } })).toContain('at expect.checks[0].tool_called.args.x.$regex');
  });

  it('refuses min: 0 without max, which every run passes; with max it means "at most max"', () => {
    expect(invalid('tool_called', { tool: 'a', min: 0 })).toBe(
      'scenario.yaml at expect.checks[0].tool_called.min: min: 0 without max passes on every run (0 or more calls); give max too (min: 0, max: 2 means at most 2 calls), or use tool_not_called for a tool that must not be called',
    );
    expect(invalid('tool_called', { tool: 'a', min: 0, args: { x: 1 } })).toContain('tool_called.min: min: 0 without max');
    expect(invalid('tool_called', { tool: 'a', min: 0, max: 0 })).toBeNull();
    expect(check('tool_called', { tool: 'lookup_order', min: 0, max: 1 }, shop).reason).toBe('expected lookup_order to be called at most once; saw it 2 times');
  });
});

// args_mode says how args are compared: each without the other would be silently ignored (docs/verdicts.md, Argument matching).
describe.each(['tool_called', 'tool_not_called'])('%s args and args_mode', (kind) => {
  it('refuses args_mode without args, saying how to ask for no arguments', () => {
    expect(invalid(kind, { tool: 'a', args_mode: 'superset' })).toBe(
      `scenario.yaml at expect.checks[0].${kind}.args_mode: args_mode compares the call's arguments with "args": give "args" too (without them a call with any arguments matches)`,
    );
    expect(invalid(kind, { tool: 'a', args_mode: 'exact' })).toContain(
      'give "args" too (without them a call with any arguments matches; args: {} with args_mode: exact asks for a call without arguments)',
    );
    expect(invalid(kind, { tool: 'a', args_mode: 'subset' })).toContain(`${kind}.args_mode: args_mode compares the call's arguments`);
    // ignore without args says what happens: no argument is compared.
    expect(invalid(kind, { tool: 'a', args_mode: 'ignore' })).toBeNull();
  });
  it('refuses args under args_mode: ignore, which compares none', () => {
    expect(invalid(kind, { tool: 'a', args_mode: 'ignore', args: { id: '999' } })).toBe(
      `scenario.yaml at expect.checks[0].${kind}.args: args are not compared under args_mode: ignore; remove args, or compare them with args_mode superset, subset or exact`,
    );
  });
  it('keeps args with another mode, and args: {} with exact (no arguments)', () => {
    for (const mode of [undefined, 'superset', 'subset', 'exact']) expect(invalid(kind, { tool: 'a', args: { id: '1' }, args_mode: mode })).toBeNull();
    expect(invalid(kind, { tool: 'a', args: {}, args_mode: 'exact' })).toBeNull();
  });
  it('says both problems of one check in one pass', () => {
    const message = invalid(kind, { tool: 'a', args_mode: 'exact', nested: 'yes' }) ?? '';
    expect(message).toContain(`${kind}.nested: expected boolean`);
    expect(message).toContain(`${kind}.args_mode: args_mode compares`);
  });
});

describe('tool_not_called', () => {
  it('passes and fails', () => {
    expect(check('tool_not_called', { tool: 'delete_order' }, shop)).toMatchObject({
      status: 'pass',
      reason: 'delete_order was not called; saw lookup_order x2, send_email x1',
    });
    expect(check('tool_not_called', { tool: 'send_email' }, shop)).toMatchObject({
      status: 'fail',
      reason: 'expected send_email not to be called; saw it once (lookup_order x2, send_email x1)',
    });
  });
  it('with args: only matching calls count', () => {
    expect(check('tool_not_called', { tool: 'lookup_order', args: { order_id: '0' } }, shop).status).toBe('pass');
    expect(check('tool_not_called', { tool: 'lookup_order', args: { order_id: '99' } }, shop).reason).toBe(
      'expected lookup_order not to be called with matching arguments; saw it once (lookup_order x2, send_email x1)',
    );
  });
});

describe('nested calls', () => {
  const run = new RunBuilder();
  run.modelCalls([{ name: 'notify_chain', result: { success: false } }]);
  const chain = run.spans().find((span) => span.name === 'execute_tool notify_chain')!.span_id;
  run.tool('post_slack', { channel: 'x' }, { parent: run.step('chain', chain, 'post_slack'), source: 'chain', result: { ok: false, error: 'not_in_channel' } });
  const evidence = buildEvidence({ spans: run.spans() });

  it('are invisible to tool checks unless nested: true', () => {
    expect(check('tool_called', { tool: 'post_slack' }, evidence).status).toBe('fail');
    expect(check('tool_called', { tool: 'post_slack', nested: true }, evidence).status).toBe('pass');
    expect(check('no_tool_errors', {}, evidence).status).toBe('pass');
    expect(check('no_tool_errors', { nested: true }, evidence).reason).toBe('expected no tool errors; call 2 (post_slack) failed: not_in_channel');
  });

  // Every check with `nested` says so when only a chain or plan called the tool, in tool_called's words.
  const HINT = '; post_slack was called once inside a plan or chain (nested: true counts those calls)';
  it('are named in the reason of every check that has nested, when they are all there was', () => {
    expect(check('tool_called', { tool: 'post_slack' }, evidence).reason).toBe(`expected post_slack to be called at least once; saw notify_chain x1${HINT}`);
    expect(check('tool_returned', { tool: 'post_slack' }, evidence).reason).toBe(
      `expected post_slack to return a result; it was never called; saw notify_chain x1${HINT}`,
    );
    expect(check('tool_order', { before: ['post_slack'], after: 'notify_chain' }, evidence).reason).toBe(
      `expected post_slack to be called before notify_chain; post_slack was never called; saw notify_chain x1${HINT}`,
    );
    expect(check('tool_order', { before: ['notify_chain'], after: 'post_slack' }, evidence).reason).toBe(
      `expected post_slack to be called after notify_chain; post_slack was never called; saw notify_chain x1${HINT}`,
    );
    expect(check('tool_sequence', { mode: 'superset', calls: [{ tool: 'post_slack' }] }, evidence).reason).toBe(
      `superset: expected call 1 (post_slack) matched no call; saw notify_chain x1${HINT}`,
    );
    // A pass that did not look inside the chain says what it left out.
    expect(check('tool_not_called', { tool: 'post_slack' }, evidence).reason).toBe(`post_slack was not called; saw notify_chain x1${HINT}`);
  });
  it('are not hinted at with nested: true, nor for a tool no chain or plan called', () => {
    expect(check('tool_returned', { tool: 'post_slack', nested: true }, evidence).reason).not.toContain('inside a plan or chain');
    expect(check('tool_not_called', { tool: 'post_slack', nested: true }, evidence).status).toBe('fail');
    expect(check('tool_order', { before: ['x'], after: 'notify_chain' }, evidence).reason).not.toContain('inside a plan or chain');
    expect(check('tool_sequence', { calls: [{ tool: 'notify_chain' }] }, evidence).reason).toBe('strict: the 1 call matched in order; saw notify_chain x1');
  });
});

describe('tool_returned', () => {
  const evidence = evidenceOf([
    [{ name: 'create_refund', outcome: 'error', result: 'HTTP 500', error_type: 'http_500' }],
    [
      { name: 'create_refund', result: { ok: true, id: 'r1' } },
      { name: 'delete_order', outcome: 'denied' },
    ],
  ]);
  it('passes when a call returned', () => {
    expect(check('tool_returned', { tool: 'create_refund' }, evidence).reason).toBe('create_refund returned a result');
  });

  it("says the result that matched, as docs/verdicts.md's pass examples show", () => {
    const docs = readFileSync(join(import.meta.dirname, '../../docs/verdicts.md'), 'utf8');
    const section = docs.slice(docs.indexOf('### tool_returned'));
    const passLine = section.slice(section.indexOf('\n- pass: '), section.indexOf('\n', section.indexOf('\n- pass: ') + 1));
    const withResult = check('tool_returned', { tool: 'create_refund', result: { ok: true, id: { $regex: '^r' } } }, evidence).reason;
    expect(withResult).toBe('create_refund returned {"ok":true,"id":"r1"}');
    for (const reason of [withResult, check('tool_returned', { tool: 'create_refund' }, evidence).reason]) expect(passLine).toContain(`\`${reason}\``);
  });
  it('names the tool a /regex/ matched in its pass reason, as the test_run verdict does (black-box nit)', () => {
    const slacks = evidenceOf([[{ name: 'slack', result: { ok: true, ts: '1' } }], [{ name: 'slack2', result: { ok: true, ts: '2' } }]]);
    expect(check('tool_returned', { tool: '/^sl/', result: { ts: '2' } }, slacks).reason).toBe('/^sl/ (slack2) returned {"ok":true,"ts":"2"}');
    expect(check('tool_returned', { tool: '/^sl/' }, slacks).reason).toBe('/^sl/ (slack, slack2) returned a result');
    expect(check('tool_returned', { tool: '/^create_/' }, evidence).reason).toBe('/^create_/ (create_refund) returned a result');
    const docs = readFileSync(join(import.meta.dirname, '../../docs/verdicts.md'), 'utf8');
    const section = docs.slice(docs.indexOf('### tool_returned'));
    expect(section.slice(section.indexOf('\n- pass: '), section.indexOf('\n- fail: '))).toContain(
      `\`${check('tool_returned', { tool: '/^create_/', result: { ok: true } }, evidence).reason}\``,
    );
  });
  it('names each tool a /regex/ matched with what it returned in its fail reason, not the first result alone (black-box nit)', () => {
    const created = evidenceOf([[{ name: 'create_refund', result: { ok: true, id: 'r1' } }], [{ name: 'create_note', result: { ok: true, id: 'n1' } }]]);
    const reason = check('tool_returned', { tool: '/^create_/', result: { id: 'zz' } }, created).reason;
    expect(reason).toBe(
      'expected /^create_/ to return {"id":"zz"}; create_refund returned {"ok":true,"id":"r1"} (at id: expected "zz", got "r1"), create_note returned {"ok":true,"id":"n1"} (at id: expected "zz", got "n1")',
    );
    const docs = readFileSync(join(import.meta.dirname, '../../docs/verdicts.md'), 'utf8');
    expect(docs.slice(docs.indexOf('### tool_returned'))).toContain(`\`${reason}\``);
    // Listed as the calls of a failure are: five, then how many more.
    const many = evidenceOf([Array.from({ length: 7 }, (_, index) => ({ name: `create_${index}`, result: { id: `i${index}` } }))]);
    expect(check('tool_returned', { tool: '/^create_/', result: { id: 'zz' } }, many).reason).toBe(
      `expected /^create_/ to return {"id":"zz"}; ${[0, 1, 2, 3, 4].map((index) => `create_${index} returned {"id":"i${index}"} (at id: expected "zz", got "i${index}")`).join(', ')}, and 2 more`,
    );
  });
  it('fails when never called or never returned', () => {
    expect(check('tool_returned', { tool: 'lookup' }, evidence).reason).toBe(
      'expected lookup to return a result; it was never called; saw create_refund x2, delete_order x1',
    );
    expect(check('tool_returned', { tool: 'delete_order' }, evidence).reason).toBe(
      'expected delete_order to return a result without error; it was called once: call 1 denied',
    );
  });
  it('lists how each call ended, with what a failed one said', () => {
    const failed = evidenceOf([
      [{ name: 'create_refund', outcome: 'error', result: 'HTTP 500', error_type: 'http_500' }],
      [{ name: 'create_refund', outcome: 'pending' }],
    ]);
    expect(check('tool_returned', { tool: 'create_refund' }, failed).reason).toBe(
      'expected create_refund to return a result without error; it was called 2 times: call 1 failed: http_500 (HTTP 500), call 2 pending approval',
    );
  });
  it('compares the result when asked', () => {
    expect(check('tool_returned', { tool: 'create_refund', result: { ok: true, id: { $regex: '^r' } } }, evidence).status).toBe('pass');
    expect(check('tool_returned', { tool: 'create_refund', result: { ok: true, id: 'r2' } }, evidence).reason).toBe(
      'expected create_refund to return {"ok":true,"id":"r2"}; it returned {"ok":true,"id":"r1"} (at id: expected "r2", got "r1")',
    );
  });
});

describe("tool_returned and error results (the digest's rule)", () => {
  const slack = (result: unknown) => evidenceOf([[{ name: 'slack', result }]]);
  const notInChannel = slack({ ok: false, error: 'not_in_channel', channel: 'C1' });

  it('does not count a call whose result holds an error token as returned', () => {
    expect(check('tool_returned', { tool: 'slack' }, notInChannel)).toMatchObject({
      status: 'fail',
      reason: 'expected slack to return a result without error; it was called once: call 1 failed: not_in_channel',
    });
    expect(check('no_tool_errors', {}, notInChannel).status).toBe('fail');
  });

  it('passes on the call that returned without error, citing only it', () => {
    const evidence = evidenceOf([[{ name: 'slack', result: { ok: false, error: 'not_in_channel' } }], [{ name: 'slack', result: { ok: true } }]]);
    const passed = check('tool_returned', { tool: 'slack' }, evidence);
    expect(passed).toMatchObject({ status: 'pass', reason: 'slack returned a result' });
    expect(passed.evidence).toEqual([evidence.calls[1].span_id]);
  });

  it('names the calls of a /regex/ tool', () => {
    expect(check('tool_returned', { tool: '/^sl/' }, notInChannel).reason).toBe(
      'expected /^sl/ to return a result without error; it was called once: call 1 (slack) failed: not_in_channel',
    );
  });

  it('matches an error result when the expected result names the error', () => {
    expect(check('tool_returned', { tool: 'slack', result: { ok: false } }, notInChannel)).toMatchObject({
      status: 'pass',
      reason: 'slack returned {"ok":false,"error":"not_in_channel","channel":"C1"} (an error result: not_in_channel)',
    });
    expect(check('tool_returned', { tool: 'slack', result: { error: 'not_in_channel' } }, notInChannel).status).toBe('pass');
    expect(check('tool_returned', { tool: 'slack', result: 'not_in_channel' }, slack('not_in_channel')).status).toBe('pass');
    // A matcher names no error; a literal beside it does.
    expect(check('tool_returned', { tool: 'slack', result: { error: { $regex: 'channel' } } }, notInChannel).status).toBe('fail');
    expect(check('tool_returned', { tool: 'slack', result: { ok: false, error: { $regex: 'channel' } } }, notInChannel).status).toBe('pass');
    expect(check('tool_returned', { tool: 'slack', result: { ok: false, error: 'channel_not_found' } }, notInChannel).reason).toBe(
      'expected slack to return {"ok":false,"error":"channel_not_found"}; it returned {"ok":false,"error":"not_in_channel","channel":"C1"} (at error: expected "channel_not_found", got "not_in_channel")',
    );
  });

  it('never matches an error result with an expected result that names no error', () => {
    expect(check('tool_returned', { tool: 'slack', result: { channel: 'C1' } }, notInChannel).reason).toBe(
      'expected slack to return {"channel":"C1"}; it was called once: call 1 failed: not_in_channel (an error result is compared only with an expected result that names an error, such as "ok": false)',
    );
  });

  it("uses the scenario's error tokens, as the digest does", () => {
    const run = new RunBuilder();
    run.modelCalls([{ name: 'finish', result: { ok: false, state: 'queued_for_review' } }]);
    run.text();
    const evidence = buildEvidence({ spans: run.spans(), errorTokens: ['queued_for_review'] });
    expect(check('tool_returned', { tool: 'finish' }, evidence).reason).toBe(
      'expected finish to return a result without error; it was called once: call 1 failed: queued_for_review',
    );
    expect(check('tool_returned', { tool: 'finish', result: { state: 'queued_for_review' } }, evidence).status).toBe('pass');
    // '"ok": false' is not one of this scenario's tokens: it names no error here.
    expect(check('tool_returned', { tool: 'finish', result: { ok: false } }, evidence).status).toBe('fail');
  });
});

describe('tool_returned result_mode', () => {
  const chain = evidenceOf([[{ name: 'sync', result: { success: true, chain_id: 'c-8f2a', steps_executed: 2 } }]]);
  it('defaults to superset: a chain result checks without its random chain_id', () => {
    expect(check('tool_returned', { tool: 'sync', result: { success: true, steps_executed: 2 } }, chain).status).toBe('pass');
  });
  it('exact refuses extra keys, subset refuses nothing missing', () => {
    expect(check('tool_returned', { tool: 'sync', result: { success: true, steps_executed: 2 }, result_mode: 'exact' }, chain).reason).toBe(
      'expected sync to return {"success":true,"steps_executed":2}; it returned {"success":true,"chain_id":"c-8f2a","steps_executed":2} (at chain_id: not expected (got "c-8f2a"))',
    );
    expect(
      check('tool_returned', { tool: 'sync', result: { success: true, chain_id: { $any: true }, steps_executed: 2, extra: 1 }, result_mode: 'subset' }, chain)
        .status,
    ).toBe('pass');
    expect(check('tool_returned', { tool: 'sync', result: { success: false }, result_mode: 'superset' }, chain).status).toBe('fail');
  });
  it('validates result_mode', () => {
    expect(invalid('tool_returned', { tool: 'sync', result: {}, result_mode: 'ignore' })).toContain('result_mode');
    expect(invalid('tool_returned', { tool: 'sync', result_mode: 'exact' })).toContain('give "result" too');
  });
});

describe('no_tool_errors', () => {
  it('passes on clean runs and ignores denied calls', () => {
    expect(check('no_tool_errors', {}, evidenceOf([[{ name: 'a' }, { name: 'b', outcome: 'denied' }]])).reason).toBe('no tool errors in 2 calls');
  });
  it('fails on span errors and error tokens, counting the rest', () => {
    const evidence = evidenceOf([
      [
        { name: 'a', outcome: 'error', result: 'x', error_type: 'invalid_arguments' },
        { name: 'b', result: { error: 'missing_scope' } },
      ],
    ]);
    const result = check('no_tool_errors', {}, evidence);
    expect(result.reason).toBe('expected no tool errors; call 1 (a) failed: invalid_arguments (x) (and 1 more error)');
    expect(result.evidence).toHaveLength(2);
  });
  it('takes its own token list', () => {
    expect(check('no_tool_errors', { error_tokens: ['quota'] }, evidenceOf([[{ name: 'a', result: 'quota exceeded' }]])).reason).toContain('failed: quota');
    expect(invalid('no_tool_errors', { error_tokens: 'quota' })).toContain('expected array');
  });
  it("uses the scenario's error tokens when it names none", () => {
    const run = new RunBuilder();
    run.modelCalls([{ name: 'a', result: 'quota exceeded' }]);
    const evidence = buildEvidence({ spans: run.spans(), errorTokens: ['quota'] });
    expect(check('no_tool_errors', {}, evidence).reason).toBe('expected no tool errors; call 1 (a) failed: quota');
  });
});

describe('tool_order', () => {
  const evidence = evidenceOf([[{ name: 'a' }], [{ name: 'b' }], [{ name: 'c' }], [{ name: 'a' }]]);
  it('passes when every call of each before tool precedes the first after', () => {
    expect(check('tool_order', { before: ['b'], after: 'c' }, evidence).reason).toBe('b all ran before the first c (call 3)');
  });
  it('fails when a before call comes late, or a tool was never called', () => {
    expect(check('tool_order', { before: ['a', 'b'], after: 'c' }, evidence).reason).toBe(
      'expected every a call before the first c (call 3); a was call 4; saw a x2, b x1, c x1',
    );
    expect(check('tool_order', { before: ['x'], after: 'c' }, evidence).reason).toBe(
      'expected x to be called before c; x was never called; saw a x2, b x1, c x1',
    );
    expect(check('tool_order', { before: ['a'], after: 'z' }, evidence).reason).toBe(
      'expected z to be called after a; z was never called; saw a x2, b x1, c x1',
    );
  });
  it('fails a before call asked for in the same model response as the after tool: parallel calls are not ordered', () => {
    const parallel = evidenceOf([[{ name: 'a' }, { name: 'c' }], [{ name: 'b' }]]);
    const failed = check('tool_order', { before: ['a'], after: 'c' }, parallel);
    expect(failed.status).toBe('fail');
    expect(failed.reason).toBe(
      'expected every a call before the first c (call 2); a was call 1, asked for in the same model response (turn 0): parallel calls are not ordered; saw a x1, c x1, b x1',
    );
    // Calls of one response may all come before a later response's call.
    expect(check('tool_order', { before: ['a', 'c'], after: 'b' }, parallel).status).toBe('pass');
  });
  it('validates', () => {
    expect(invalid('tool_order', { before: [], after: 'c' })).toContain('expected at least 1 item(s)');
    expect(invalid('tool_order', { before: 'a', after: 'c' })).toContain('expected array');
  });
  it('refuses a before tool that is the after tool (same name, not regex overlap)', () => {
    const self = 'lookup_order is also the after tool; a tool cannot run before its own first call (for exactly one call, use tool_called with max: 1)';
    expect(invalid('tool_order', { before: ['lookup_order'], after: 'lookup_order' })).toBe(`scenario.yaml at expect.checks[0].tool_order.before[0]: ${self}`);
    expect(invalid('tool_order', { before: ['a', 'lookup_order'], after: 'execute_tool lookup_order' })).toContain(`tool_order.before[1]: ${self}`);
    expect(invalid('tool_order', { before: ['/look/'], after: '/look/' })).toContain('tool_order.before[0]: /look/ is also the after tool');
    expect(invalid('tool_order', { before: ['/lookup_.*/'], after: 'lookup_order' })).toBeNull();
    expect(invalid('tool_order', { before: ['lookup_order'], after: '/lookup_.*/' })).toBeNull();
  });
});
