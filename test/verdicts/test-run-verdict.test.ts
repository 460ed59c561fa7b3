import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/errors.js';
import { compileErrorTokens, findErrorToken } from '../../src/verdicts/error-tokens.js';
import { buildEvidence } from '../../src/verdicts/evidence.js';
import { scoreTestRun } from '../../src/verdicts/test-run-verdict.js';
import { RunBuilder, type FinishOptions } from './span-builder.js';
import { configErrorOf } from '../helpers/config-error.js';

type Calls = Parameters<RunBuilder['modelCalls']>[0];

function score(
  responses: Calls[],
  options: { terminal_tool?: string; error?: { type: string; message: string }; error_tokens?: string[] } & FinishOptions = {},
) {
  const run = new RunBuilder();
  for (const calls of responses) {
    for (const call of calls)
      if (call.outcome === 'denied' || call.outcome === 'pending') run.approval(call.name, call.outcome === 'denied' ? 'deny' : 'pending');
    run.modelCalls(calls);
  }
  const spans = run.spans(options);
  const { terminal_tool, error, error_tokens } = options;
  return scoreTestRun({ spans, stop_reason: options.stop_reason ?? 'end_turn', terminal_tool, error, error_tokens });
}

describe('error tokens', () => {
  const tokens = compileErrorTokens();
  it.each([
    ['{"ok":false,"error":"not_in_channel"}', 'not_in_channel'],
    ['{"ok":false,"error":"channel_not_found"}', 'channel_not_found'],
    ['{"ok":false,"error":"rate_limited"}', '"error":"rate_limited"'],
    ['{"ok" :  false}', '"ok": false'],
    ['{"channel":"x","error":"channel_not_found"}', 'channel_not_found'],
    ['{"error": "boom"}', '"error": "boom"'],
    ['{"error":"with \\"quotes\\""}', '"error":"with \\"quotes\\""'],
  ])('finds %s', (text, token) => {
    expect(findErrorToken(text, tokens)).toBe(token);
  });
  it.each(['{"ok":true}', '{"error":""}', '{"error":null}', 'all good'])('ignores %s', (text) => {
    expect(findErrorToken(text, tokens)).toBeNull();
  });
  it('takes a custom list', () => {
    expect(findErrorToken('rate_limited', compileErrorTokens(['rate_limited']))).toBe('rate_limited');
    expect(findErrorToken('{"ok":false}', compileErrorTokens(['rate_limited']))).toBeNull();
  });
});

describe('scoreTestRun: digest', () => {
  it('lists tools in first-call order with called / returned / errors, and approvals', () => {
    const result = score([
      [{ name: 'lookup_order' }, { name: 'send_message', result: { ok: false, error: 'not_in_channel' } }],
      [{ name: 'execute_tool lookup_order' }, { name: 'delete_order', outcome: 'denied' }],
    ]);
    expect(result.tools).toEqual([
      { name: 'lookup_order', called: 2, returned: 2, errors: 0 },
      { name: 'send_message', called: 1, returned: 0, errors: 1 },
      { name: 'delete_order', called: 1, returned: 0, errors: 0 },
    ]);
    expect(result.approvals).toEqual([{ tool: 'delete_order', decision: 'deny' }]);
    expect(result.trace_id).toBe('trace-1');
    expect(result.resolved?.revision_id).toBe('test-bot');
    expect(result.incomplete).toBeNull();
  });

  it('counts flow-step calls but not calls inside a chain; a chain result holding a handled step error is no error', () => {
    const run = new RunBuilder();
    run.modelCalls([{ name: 'refund_chain', kind: 'chain', result: { success: true, results: [{ step: 'charge', error: 'declined' }] } }]);
    const chain = run.spans().find((span) => span.name === 'execute_tool refund_chain')!.span_id;
    run.tool('charge', {}, { parent: run.step('chain', chain, 'charge'), source: 'chain', outcome: 'error', result: 'declined' });
    run.tool('read_file', {}, { parent: run.component('read', 'deterministic_step'), source: 'flow', result: 'x' });
    const result = scoreTestRun({ spans: run.spans(), stop_reason: 'end_turn', terminal_tool: 'refund_chain' });
    expect(result.tools.map((tool) => tool.name)).toEqual(['refund_chain', 'read_file']);
    expect(result.verdict).toBe('pass');
  });

  it('a terminal tool called only inside a chain is incomplete, and the reason says it was called there', () => {
    const run = new RunBuilder();
    run.modelCalls([{ name: 'ch', kind: 'chain', result: { success: true } }]);
    const chain = run.spans().find((span) => span.name === 'execute_tool ch')!.span_id;
    run.tool('echo', {}, { parent: run.step('chain', chain, 'echo'), source: 'chain', result: 'hi' });
    const result = scoreTestRun({ spans: run.spans(), stop_reason: 'end_turn', terminal_tool: 'echo' });
    expect(result).toMatchObject({
      verdict: 'incomplete',
      verdict_reason:
        'terminal tool echo was never called; saw ch x1; echo was called once inside a plan or chain, which the verdict does not count (name the plan or chain tool, or the plan component, instead; a tool_called check with nested: true counts those calls)',
    });
  });
});

describe('scoreTestRun: verdict order', () => {
  it('failed on a tool error token, naming the tool and the token', () => {
    const result = score([[{ name: 'send_message', result: { ok: false, error: 'not_in_channel' } }], [{ name: 'create_refund' }]], {
      terminal_tool: 'create_refund',
    });
    expect(result).toMatchObject({ verdict: 'failed', verdict_reason: 'tool send_message failed: not_in_channel' });
  });

  it('an interrupted run names the interrupt, not the call it canceled (as a timed-out run does)', () => {
    const calls = [[{ name: 'run_command', outcome: 'error' as const, result: 'node was canceled', error_type: 'command_canceled' }]];
    for (const type of ['RUN_ABORTED', 'TIMEOUT']) {
      const result = score(calls, { terminal_tool: 'run_command', stop_reason: 'error', error: { type, message: 'the run was aborted: interrupted' } });
      expect(result).toMatchObject({ verdict: 'failed', verdict_reason: `the invoke errored (${type}: the run was aborted: interrupted)` });
    }
  });

  it("an external agent that failed or timed out is named, not the call it left unanswered (as a timed-out run's cut is)", () => {
    const calls = [[{ name: 'lookup', outcome: 'error' as const, result: 'the agent never sent a result', error_type: 'unanswered_tool_call' }]];
    for (const type of ['EXTERNAL_AGENT_FAILED', 'EXTERNAL_AGENT_TIMEOUT']) {
      const result = score(calls, {
        terminal_tool: 'lookup',
        stop_reason: 'error',
        error: { type, message: 'the external agent failed: node exited with code 2' },
      });
      expect(result).toMatchObject({ verdict: 'failed', verdict_reason: `the invoke errored (${type}: the external agent failed: node exited with code 2)` });
    }
  });

  it('a call that failed before an external agent failed is still named first: only the calls it left unanswered are its symptom', () => {
    const calls = [
      [{ name: 'charge', outcome: 'error' as const, result: { error: 'card declined' }, error_type: 'http_402' }],
      [{ name: 'lookup', outcome: 'error' as const, result: 'the agent never sent a result', error_type: 'unanswered_tool_call' }],
    ];
    const result = score(calls, {
      terminal_tool: 'lookup',
      stop_reason: 'error',
      error: { type: 'EXTERNAL_AGENT_FAILED', message: 'the external agent failed: node exited with code 1' },
    });
    expect(result.verdict).toBe('failed');
    expect(result.verdict_reason).toMatch(/^tool charge failed: /);
  });

  it('without a terminal_tool, a paused run says it waits first', () => {
    const result = score([[{ name: 'lookup_order' }], [{ name: 'delete_order', outcome: 'pending' }]], { stop_reason: 'paused' });
    expect(result).toMatchObject({
      verdict: 'unconfirmed',
      verdict_reason:
        'paused: delete_order waits for approval; no terminal_tool was expected, so the run cannot be confirmed; saw lookup_order x1, delete_order x1',
    });
  });

  it('failed on a span marked as an error, naming its error.type', () => {
    const result = score([[{ name: 'create_refund', outcome: 'error', result: 'HTTP 500', error_type: 'http_500' }]], { terminal_tool: 'create_refund' });
    expect(result).toMatchObject({ verdict: 'failed', verdict_reason: 'tool create_refund failed: http_500 (HTTP 500)' });
  });

  it('an invalid_arguments reason carries the schema message', () => {
    const refusal = 'Invalid arguments for label_issue: labels[0]: expected one of "bug" | "docs", got string "bgu".';
    const result = score([[{ name: 'label_issue', outcome: 'error', result: refusal, error_type: 'invalid_arguments' }]], { terminal_tool: 'label_issue' });
    expect(result.verdict_reason).toBe(`tool label_issue failed: invalid_arguments (${refusal})`);
  });

  it("a network error reason names method, URL and cause from the tool's error", () => {
    const error = 'fetch_page: GET https://x.test/a?token=[redacted] failed: fetch failed (connect ECONNREFUSED)';
    const result = score([[{ name: 'fetch_page', outcome: 'error', result: { error }, error_type: 'network' }]], { terminal_tool: 'fetch_page' });
    expect(result.verdict_reason).toBe(`tool fetch_page failed: network (${error})`);
  });

  it('names the most specific error token: the error code, not "ok": false', () => {
    const result = score([[{ name: 'post', result: { ok: false, error: 'channel_not_found' } }]], { terminal_tool: 'post' });
    expect(result.verdict_reason).toBe('tool post failed: channel_not_found');
  });

  it('a run paused at a gate before the terminal tool says so', () => {
    const result = score([[{ name: 'run_command', outcome: 'pending' }]], { terminal_tool: 'create_refund', stop_reason: 'paused' });
    expect(result).toMatchObject({
      verdict: 'incomplete',
      verdict_reason: 'paused: run_command waits for approval; terminal tool create_refund was never called; saw run_command x1',
    });
  });

  it.each([
    ['max_tokens', 'MODEL_MAX_TOKENS', 'its answer was cut off at the token limit'],
    ['refusal', 'MODEL_REFUSAL', 'it refused'],
    ['content_filter', 'MODEL_CONTENT_FILTER', "the provider's content filter withheld its answer"],
  ] as const)('failed when the model stopped with %s, even after the terminal tool returned', (stop_reason, type, words) => {
    const error = { type, message: `details (anthropic finish reason "${stop_reason}")` };
    const result = score([[{ name: 'a' }]], { terminal_tool: 'a', stop_reason, error });
    expect(result).toMatchObject({
      verdict: 'failed',
      verdict_reason: `the model stopped early, stop_reason ${stop_reason}: ${words} (${type}: details (anthropic finish reason "${stop_reason}"))`,
    });
  });

  it('failed on an errored invoke', () => {
    const result = score([[{ name: 'a' }]], { terminal_tool: 'a', stop_reason: 'error', error: { type: 'ModelError', message: 'script exhausted' } });
    expect(result).toMatchObject({ verdict: 'failed', verdict_reason: 'the invoke errored (ModelError: script exhausted)' });
  });

  it('unconfirmed without a terminal tool', () => {
    const result = score([[{ name: 'a' }]]);
    expect(result).toMatchObject({ verdict: 'unconfirmed', verdict_reason: 'no terminal_tool was expected, so the run cannot be confirmed; saw a x1' });
  });

  it('incomplete when the terminal tool was never called', () => {
    const result = score([[{ name: 'lookup_order' }, { name: 'lookup_order' }], [{ name: 'send_email' }]], { terminal_tool: 'create_refund' });
    expect(result).toMatchObject({ verdict: 'incomplete', verdict_reason: 'terminal tool create_refund was never called; saw lookup_order x2, send_email x1' });
  });

  it('pass when the terminal tool returned a result; names compare after prefixes; /regex/ allowed', () => {
    expect(score([[{ name: 'mcp__shop__create_refund' }]], { terminal_tool: 'create_refund' })).toMatchObject({
      verdict: 'pass',
      verdict_reason: 'terminal tool create_refund was called and returned a result',
    });
    expect(score([[{ name: 'create_refund' }]], { terminal_tool: '/^create_/' })).toMatchObject({
      verdict: 'pass',
      verdict_reason: 'terminal tool /^create_/ (create_refund) was called and returned a result',
    });
  });

  it('unconfirmed while waiting for approval; a pending call is not an error', () => {
    const result = score([[{ name: 'create_refund', outcome: 'pending' }]], { terminal_tool: 'create_refund', stop_reason: 'paused' });
    expect(result).toMatchObject({
      verdict: 'unconfirmed',
      verdict_reason: 'waiting for approval: terminal tool create_refund was called but not yet approved',
    });
  });

  it('unconfirmed when the terminal tool ran but did not return output (denied)', () => {
    const result = score([[{ name: 'create_refund', outcome: 'denied' }]], { terminal_tool: 'create_refund' });
    expect(result).toMatchObject({ verdict: 'unconfirmed', verdict_reason: 'ran but did not return output: terminal tool create_refund ended denied' });
  });

  it('names the pause, and how the terminal tool ended, when the run waits elsewhere after it was denied', () => {
    const humanInput = score([[{ name: 'write_file', outcome: 'denied' }]], { terminal_tool: 'write_file', stop_reason: 'paused' });
    expect(humanInput).toMatchObject({
      verdict: 'unconfirmed',
      verdict_reason: 'paused: the run waits for an answer (human input); terminal tool write_file ended denied',
    });
    const otherGate = score([[{ name: 'write_file', outcome: 'denied' }], [{ name: 'deploy', outcome: 'pending' }]], {
      terminal_tool: 'write_file',
      stop_reason: 'paused',
    });
    expect(otherGate.verdict_reason).toBe('waiting for approval: deploy waits for approval; terminal tool write_file ended denied');
  });

  it('uses a custom error token list', () => {
    const calls: Calls = [{ name: 'post', result: { status: 'rate_limited' } }];
    expect(score([calls], { terminal_tool: 'post' }).verdict).toBe('pass');
    expect(score([calls], { terminal_tool: 'post', error_tokens: ['rate_limited'] })).toMatchObject({
      verdict: 'failed',
      verdict_reason: 'tool post failed: rate_limited',
    });
  });

  it('reports incomplete spans', () => {
    const run = new RunBuilder();
    run.modelCalls([{ name: 'a' }]);
    const spans = run.spans();
    spans[1] = { ...spans[1], ended: false };
    expect(scoreTestRun({ spans, stop_reason: 'end_turn' }).incomplete).toContain('had not ended');
  });
});

describe('scoreTestRun input (a library caller)', () => {
  const spans = new RunBuilder().spans();

  it('names every wrong field in one ConfigError instead of a TypeError or a verdict from a made-up stop reason', () => {
    const thrown = configErrorOf(() => scoreTestRun({ spans: 'x', stop_reason: 'bogus', error_tokens: 'x', terminal_tool: '/(a+)+/', extra: 1 } as never));
    const message = thrown.message;
    expect(message).toContain('unknown key "extra"');
    expect(message).toContain('at spans: expected an array of span records (readSpansJsonl), got string "x"');
    expect(message).toContain('at stop_reason: expected one of end_turn, max_turns, paused, error, max_tokens, refusal, content_filter, got string "bogus"');
    expect(message).toContain('at error_tokens: expected a list of non-empty strings, got string "x"');
    expect(message).toMatch(/at terminal_tool: .*nested quantifier/);
    expect(thrown.code).toBe('CONFIG_INVALID');
  });

  it('points at the span that is not a span record', () => {
    expect(() => scoreTestRun({ spans: [...spans, 42] as never, stop_reason: 'end_turn' })).toThrow('at spans[' + spans.length + ']: expected a span record');
  });

  it('points at the field of a record that lacks what evidence reads', () => {
    expect(() => scoreTestRun({ spans: [{ name: 'x' }] as never, stop_reason: 'end_turn' })).toThrow(
      "scoreTestRun at spans[0].trace_id: expected a string (a span record's trace_id), got nothing",
    );
  });

  it('types stop_reason as the StopReason union, so a typo is a compile error before the run-time refusal', () => {
    // @ts-expect-error 'bogus' is no StopReason (tsc --noEmit -p . checks this line)
    expect(() => scoreTestRun({ spans, stop_reason: 'bogus' })).toThrow('scoreTestRun at stop_reason');
  });

  it('names the key a misspelt one is near', () => {
    expect(() => scoreTestRun({ spans, stop_reason: 'end_turn', terminal_tol: 'x' } as never)).toThrow(
      'scoreTestRun at terminal_tol: unknown key "terminal_tol" (did you mean "terminal_tool"?)',
    );
  });

  it('refuses evidence that is not what buildEvidence returns, rather than a TypeError reading its calls', () => {
    for (const [evidence, shown] of [
      [5, 'number 5'],
      [{}, 'an object'],
    ] as const) {
      expect(() => scoreTestRun({ spans, stop_reason: 'end_turn', evidence } as never)).toThrow(
        `scoreTestRun at evidence: expected the evidence buildEvidence({spans}) returns for the same spans, got ${shown}`,
      );
    }
    expect(scoreTestRun({ spans, stop_reason: 'end_turn', evidence: buildEvidence({ spans }) }).verdict).toBe('unconfirmed');
  });

  it('scores sound input as before', () => {
    expect(scoreTestRun({ spans, stop_reason: 'end_turn', error: null, terminal_tool: null }).verdict).toBe('unconfirmed');
  });
});

describe('buildEvidence input (a library caller)', () => {
  const spans = new RunBuilder().spans();
  const problem = (input: unknown): string => {
    try {
      buildEvidence(input as never);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error('expected a ConfigError');
  };

  it('names the field, as scoreTestRun does, instead of a TypeError from inside', () => {
    expect(problem({})).toBe('buildEvidence at spans: expected an array of span records (readSpansJsonl), got nothing');
    expect(problem({ spans: [{ name: 'x' }] })).toBe("buildEvidence at spans[0].trace_id: expected a string (a span record's trace_id), got nothing");
    expect(problem(null)).toMatch(/^buildEvidence: expected \{spans, transcript\?, .*\}, got null$/);
    const { attributes: _dropped, ...bare } = spans[0];
    expect(problem({ spans: [...spans, bare] })).toBe(
      `buildEvidence at spans[${spans.length}].attributes: expected an object (a span record's attributes), got nothing`,
    );
  });

  it('names every wrong optional field in one error', () => {
    const message = problem({ spans, transcript: 'hi', output: 3, errorTokens: [''], judgements: [], extra: true });
    expect(message).toContain('buildEvidence at extra: unknown key "extra"');
    expect(message).toContain('buildEvidence at transcript: expected a list of messages {role, content}, got string "hi"');
    expect(message).toContain('buildEvidence at output: expected a string, got number 3');
    expect(message).toContain('buildEvidence at errorTokens: expected a list of non-empty strings');
    expect(message).toContain('buildEvidence at judgements: expected an object of judge answers by check id, got an array');
  });

  it('builds evidence from sound input as before', () => {
    expect(buildEvidence({ spans, output: 'done' }).output).toBe('done');
  });
});
