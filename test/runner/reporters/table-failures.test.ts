import { describe, expect, it } from 'vitest';
import type { ScenarioRow } from '../../../src/runner/report/report.js';
import { palette } from '../../../src/runner/reporters/format/ansi.js';
import { renderTableReport, TableReporter } from '../../../src/runner/reporters/table-reporter.js';
import { captureStream, report, row, stripAnsi, testRunResult } from './fixture-report.js';

const refundTranscript: ScenarioRow['transcript'] = [
  { role: 'user', content: 'Refund order 1234' },
  { role: 'assistant', content: '', tool_calls: [{ tool_call_id: 'c1', tool_name: 'lookup_order', input: { order_id: '1234' } }] },
  { role: 'tool', tool_call_id: 'c1', tool_name: 'lookup_order', content: '{"status":"delivered"}', is_error: false },
  { role: 'assistant', content: '', tool_calls: [{ tool_call_id: 'c2', tool_name: 'create_refund', input: { order_id: '1234', reason: 'damaged' } }] },
  { role: 'tool', tool_call_id: 'c2', tool_name: 'create_refund', content: 'network: connect ECONNREFUSED', is_error: true },
  { role: 'assistant', content: 'Sorry, the refund failed.' },
];

function failingRow(overrides: Partial<ScenarioRow> = {}): ScenarioRow {
  return row('refund.scenario.yaml', 'refund', {
    status: 'fail',
    reason: 'verdict failed, expected pass: create_refund returned an error (network); tool_returned#1: create_refund: expected a result, got an error',
    checks: [
      { id: 'tool_called#0', kind: 'tool_called', status: 'pass', reason: 'ok', evidence: [] },
      { id: 'tool_returned#1', kind: 'tool_returned', status: 'fail', reason: 'create_refund: expected a result, got an error', evidence: [] },
    ],
    test_run: testRunResult({ verdict: 'failed', verdict_reason: 'create_refund returned an error (network)', stop_reason: 'end_turn' }),
    transcript: refundTranscript,
    ...overrides,
  });
}

describe('terminal failure details', () => {
  it('shows the failing verdict and check, the numbered calls with arguments and outcome, and why the run stopped', () => {
    const text = renderTableReport(report([failingRow()]), palette(false), { columns: 120 });
    const block = text.slice(text.indexOf('FAIL refund.scenario.yaml#refund [base]'));
    expect(block.split('\n').slice(0, 7)).toEqual([
      'FAIL refund.scenario.yaml#refund [base]',
      '  ✗ verdict failed, expected pass: create_refund returned an error (network)',
      '  ✗ tool_returned#1: create_refund: expected a result, got an error',
      '  Tool calls (2):',
      '    1. lookup_order({"order_id":"1234"}) -> returned {"status":"delivered"}',
      '    2. create_refund({"order_id":"1234","reason":"damaged"}) -> error network: connect ECONNREFUSED',
      '  Stopped: end_turn (the model answered without asking for a tool)',
    ]);
  });

  it("names an error row's error and a paused run's pending call", () => {
    const paused = failingRow({
      status: 'error',
      reason: 'boom',
      error: { type: 'TIMEOUT', message: 'scenario timed out after 50 ms' },
      checks: [],
      transcript: refundTranscript.slice(0, 4),
      test_run: testRunResult({ stop_reason: 'paused' }),
    });
    const text = renderTableReport(report([paused]), palette(false), { columns: 120, quiet: true });
    expect(text).toContain('ERROR refund.scenario.yaml#refund [base]\n  ✗ TIMEOUT: scenario timed out after 50 ms\n');
    expect(text).toContain('    2. create_refund({"order_id":"1234","reason":"damaged"}) -> no result (pending)\n');
    expect(text).toContain('  Stopped: paused (waiting for an approval nobody gave)\n');
  });

  it("prints a crashed agent's stderr tail as one problem, its lines under it, beside problems listed one per line", () => {
    const stack = [
      'file:///work/agent.mjs:3',
      "  throw new Error('boom');",
      '  ^',
      '',
      'Error: boom',
      '    at file:///work/agent.mjs:3:9',
      '',
      'Node.js v20.19.0',
    ].join('\n');
    const crashed = failingRow({
      status: 'error',
      checks: [],
      transcript: [],
      error: { type: 'EXTERNAL_AGENT_FAILED', message: `the external agent failed: node exited with code 1; stderr: ${stack}` },
      test_run: testRunResult({ stop_reason: 'error' }),
    });
    const listed = failingRow({
      id: 'refund.scenario.yaml#listed',
      status: 'error',
      checks: [],
      transcript: [],
      error: { type: 'CONFIG_INVALID', message: 'x.yaml at a: first problem\nx.yaml at b: second problem' },
      test_run: testRunResult({ stop_reason: 'error' }),
    });
    const answered = failingRow({
      id: 'refund.scenario.yaml#answered',
      status: 'error',
      checks: [],
      transcript: [],
      error: {
        type: 'EXTERNAL_AGENT_FAILED',
        message: 'POST http://127.0.0.1:9/invoke answered HTTP 500: <!DOCTYPE html>\n<html>\n<body>Internal error</body>\n</html>',
      },
      test_run: testRunResult({ stop_reason: 'error' }),
    });
    const text = renderTableReport(report([crashed, listed, answered]), palette(false), { columns: 120, quiet: true });
    // Before, each line of the stack trace was a problem of its own, on a ✗ line.
    expect(text).toContain(
      [
        'ERROR refund.scenario.yaml#refund [base]',
        '  ✗ EXTERNAL_AGENT_FAILED: the external agent failed: node exited with code 1; stderr: file:///work/agent.mjs:3',
        "    throw new Error('boom');",
        '    ^',
        '    Error: boom',
        '    at file:///work/agent.mjs:3:9',
        '    Node.js v20.19.0',
        '',
      ].join('\n'),
    );
    expect(text).toContain(
      '  ✗ EXTERNAL_AGENT_FAILED: POST http://127.0.0.1:9/invoke answered HTTP 500: <!DOCTYPE html>\n    <html>\n    <body>Internal error</body>\n    </html>\n',
    );
    expect(text.match(/✗/g)).toHaveLength(4);
    expect(text).toContain('  ✗ CONFIG_INVALID: x.yaml at a: first problem\n  ✗ x.yaml at b: second problem\n');
  });

  it('says in words why a run stopped abnormally: refused, cut off or filtered', () => {
    const words = {
      refusal: 'the model refused',
      max_tokens: "the model's answer was cut off at the token limit",
      content_filter: "the provider's content filter withheld the model's answer",
    } as const;
    for (const [stop_reason, said] of Object.entries(words)) {
      const refused = failingRow({
        status: 'error',
        error: { type: 'MODEL_REFUSAL', message: 'the model refused to answer (anthropic finish reason "refusal")' },
        checks: [],
        test_run: testRunResult({ stop_reason: stop_reason as keyof typeof words }),
      });
      const text = renderTableReport(report([refused]), palette(false), { columns: 120, quiet: true });
      expect(text).toContain(`  Stopped: ${stop_reason} (${said})\n`);
    }
  });

  it('says the calls of an answer that ended abnormally were not run; earlier calls keep their outcome', () => {
    const transcript: ScenarioRow['transcript'] = [
      ...(refundTranscript ?? []).slice(0, 3),
      { role: 'assistant', content: '', tool_calls: [{ tool_call_id: 'c2', tool_name: 'create_refund', input: '{"order_id":' }] },
    ];
    const cases = [
      { stop_reason: 'max_tokens', type: 'MODEL_MAX_TOKENS', said: 'the answer was cut off' },
      { stop_reason: 'content_filter', type: 'MODEL_CONTENT_FILTER', said: "the provider's content filter withheld the answer" },
      { stop_reason: 'error', type: 'MODEL_PAUSE_TURN', said: 'the provider paused the turn' },
    ] as const;
    for (const { stop_reason, type, said } of cases) {
      const cut = failingRow({ status: 'error', error: { type, message: 'x' }, checks: [], transcript, test_run: testRunResult({ stop_reason }) });
      const text = renderTableReport(report([cut]), palette(false), { columns: 120, quiet: true });
      expect(text).toContain(
        `    1. lookup_order({"order_id":"1234"}) -> returned {"status":"delivered"}\n    2. create_refund("{\\"order_id\\":") -> not run (${said})\n`,
      );
    }
  });

  it('pairs each call with its own result when two calls share an id (a paused call, then a later one)', () => {
    // A resumed run's script restarts its generated ids, so `call_1` can name two different calls.
    const transcript: ScenarioRow['transcript'] = [
      { role: 'user', content: 'Write both files' },
      { role: 'assistant', content: '', tool_calls: [{ tool_call_id: 'call_1', tool_name: 'write_file', input: { path: 'a.txt' } }] },
      {
        role: 'tool',
        tool_call_id: 'call_1',
        tool_name: 'write_file',
        content: 'Denied: the user did not approve this call to write_file.',
        is_error: true,
        denied: true,
      },
      { role: 'assistant', content: '', tool_calls: [{ tool_call_id: 'call_1', tool_name: 'write_file', input: { path: 'b.txt' } }] },
      { role: 'tool', tool_call_id: 'call_1', tool_name: 'write_file', content: 'wrote b.txt', is_error: false },
      { role: 'assistant', content: '', tool_calls: [{ tool_call_id: 'call_1', tool_name: 'write_file', input: { path: 'c.txt' } }] },
    ];
    const text = renderTableReport(report([failingRow({ transcript, test_run: testRunResult({ stop_reason: 'paused' }) })]), palette(false), {
      columns: 120,
      quiet: true,
    });
    expect(text).toContain(
      [
        '  Tool calls (3):',
        '    1. write_file({"path":"a.txt"}) -> denied (Denied: the user did not approve this call to write_file.)',
        '    2. write_file({"path":"b.txt"}) -> returned wrote b.txt',
        '    3. write_file({"path":"c.txt"}) -> no result (pending)',
      ].join('\n'),
    );
  });

  it('leaves a paused call pending when a later call reuses its id and gets a result', () => {
    const transcript: ScenarioRow['transcript'] = [
      { role: 'user', content: 'Refund order 1234' },
      { role: 'assistant', content: '', tool_calls: [{ tool_call_id: 'c1', tool_name: 'create_refund', input: { order_id: '1234' } }] },
      { role: 'assistant', content: '', tool_calls: [{ tool_call_id: 'c1', tool_name: 'lookup_order', input: { order_id: '1234' } }] },
      { role: 'tool', tool_call_id: 'c1', tool_name: 'lookup_order', content: '{"status":"delivered"}', is_error: false },
    ];
    const paused = testRunResult({ stop_reason: 'paused' });
    const text = renderTableReport(report([failingRow({ transcript, test_run: paused })]), palette(false), { columns: 120, quiet: true });
    expect(text).toContain(
      '    1. create_refund({"order_id":"1234"}) -> no result (pending)\n    2. lookup_order({"order_id":"1234"}) -> returned {"status":"delivered"}\n',
    );
  });

  it('says a call of a run that ended in the middle of its round got no result, not that it is pending', () => {
    const transcript: ScenarioRow['transcript'] = [
      { role: 'user', content: 'Refund order 1234' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          { tool_call_id: 'c1', tool_name: 'lookup_order', input: { order_id: '1234' } },
          { tool_call_id: 'c2', tool_name: 'create_refund', input: { order_id: '1234' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', tool_name: 'lookup_order', content: '{"status":"delivered"}', is_error: false },
    ];
    const ended = failingRow({
      status: 'error',
      error: { type: 'MCP_SERVER_FAILED', message: 'the MCP server exited' },
      checks: [],
      transcript,
      test_run: testRunResult({ stop_reason: 'error' }),
    });
    const text = renderTableReport(report([ended]), palette(false), { columns: 120, quiet: true });
    expect(text).toContain('    2. create_refund({"order_id":"1234"}) -> no result (the run ended first: MCP_SERVER_FAILED)\n');
    const noError = renderTableReport(report([failingRow({ transcript })]), palette(false), { columns: 120, quiet: true });
    expect(noError).toContain('    2. create_refund({"order_id":"1234"}) -> no result (the run ended first)\n');
  });

  it("lists a flow's step calls after the model's, and says how a flow ended or paused in a flow's words", () => {
    const flowRow = (overrides: Partial<ScenarioRow>) =>
      failingRow({ flow_calls: [{ name: 'notify', called: 2 }], test_run: testRunResult({ stop_reason: 'end_turn' }), ...overrides });
    const render = (failing: ScenarioRow) => renderTableReport(report([failing]), palette(false), { columns: 120, quiet: true });
    const ended = render(flowRow({}));
    expect(ended).toContain(
      [
        '    2. create_refund({"order_id":"1234","reason":"damaged"}) -> error network: connect ECONNREFUSED',
        '  Flow step calls: notify x2 (deterministic steps and plan components; arguments and results in spans.jsonl)',
        '  Stopped: end_turn (the flow reached end)',
      ].join('\n'),
    );
    // A flow paused at a human_input component, not at an approval gate.
    const waiting = render(flowRow({ transcript: refundTranscript?.slice(0, 1), test_run: testRunResult({ stop_reason: 'paused' }) }));
    expect(waiting).toContain(
      '  Flow step calls: notify x2 (deterministic steps and plan components; arguments and results in spans.jsonl)\n  Stopped: paused (waiting for a human_input answer nobody gave)',
    );
    expect(waiting).not.toContain('Tool calls');
    const gated = flowRow({ test_run: testRunResult({ stop_reason: 'paused', approvals: [{ tool: 'create_refund', decision: 'pending' }] }) });
    expect(render(gated)).toContain('  Stopped: paused (waiting for an approval nobody gave)');
    // A flow whose steps called nothing, and whose model called nothing: none, said once.
    expect(render(flowRow({ flow_calls: [], transcript: refundTranscript?.slice(0, 1) }))).toContain(
      '  Tool calls: none\n  Stopped: end_turn (the flow reached end)',
    );
  });

  it("lists an external agent's calls known from its own spans after the bridge's, counted from test_run.tools", () => {
    const external = { kind: 'command' as const, command: ['node', 'agent.mjs'], env: [], headers: [], timeout_ms: 300_000 };
    const base = testRunResult();
    const externalRow = (tools: NonNullable<ScenarioRow['test_run']>['tools'], transcript: ScenarioRow['transcript']) =>
      failingRow({ transcript, test_run: testRunResult({ tools, resolved: { ...base.resolved!, external } }) });
    const render = (failing: ScenarioRow) => renderTableReport(report([failing]), palette(false), { columns: 200, quiet: true });
    // lookup_order went through the bridge (in the transcript); the second lookup_order and
    // get_weather were run by the agent on its own and exported as spans.
    const mixed = render(
      externalRow(
        [
          { name: 'lookup_order', called: 2, returned: 2, errors: 0 },
          { name: 'get_weather', called: 1, returned: 1, errors: 0 },
        ],
        refundTranscript?.slice(0, 3),
      ),
    );
    expect(mixed).toContain(
      [
        '  Tool calls (1):',
        '    1. lookup_order({"order_id":"1234"}) -> returned {"status":"delivered"}',
        "  Tool calls from the agent's own spans: lookup_order x1, get_weather x1 (past the model bridge; arguments and results in spans.jsonl)",
        '  Stopped: end_turn (the agent answered)',
      ].join('\n'),
    );
    // Every call through the bridge: nothing more to list, and still only the answer is known.
    const bridged = render(externalRow([{ name: 'lookup_order', called: 1, returned: 1, errors: 0 }], refundTranscript?.slice(0, 3)));
    expect(bridged).not.toContain('own spans');
    expect(bridged).toContain('  Stopped: end_turn (the agent answered)');
    // No call anywhere: none, as before.
    expect(render(externalRow([], refundTranscript?.slice(0, 1)))).toContain('  Tool calls: none\n  Stopped: end_turn (the agent answered)');
    // An engine agent's row keeps its transcript's calls and the model's words.
    const engine = render(failingRow({ transcript: refundTranscript?.slice(0, 3) }));
    expect(engine).not.toContain('own spans');
    expect(engine).toContain('  Stopped: end_turn (the model answered without asking for a tool)');
  });

  it('groups identical failures across variants and repeats into one block', () => {
    const rows = ['base', 'terse', 'strict'].flatMap((variant) => [0, 1, 2].map((repeat) => failingRow({ variant, repeat })));
    rows.push(failingRow({ variant: 'base', repeat: 3, reason: 'something else', checks: [] }));
    const text = renderTableReport(report(rows), palette(false), { columns: 120, quiet: true });
    expect(text).toContain('FAIL refund.scenario.yaml#refund x9: base#0-2, terse#0-2, strict#0-2\n  ✗ verdict failed');
    expect(text.match(/Tool calls \(2\)/g)).toHaveLength(2);
    expect(text).toContain('FAIL refund.scenario.yaml#refund [base #3]\n  ✗ something else\n');
  });

  it('fits every line into the terminal width, wrapping long scenario ids and reasons', () => {
    const long = 'a-very-long-scenario-name-that-goes-on-and-on-'.repeat(3);
    const rows = [
      failingRow({ id: `nested/folder/${long}.scenario.yaml#${long}`, reason: `${'word '.repeat(60)}end`, checks: [] }),
      row('ok.scenario.yaml', 'fine'),
    ];
    for (const columns of [80, 100, 120]) {
      const text = renderTableReport(report(rows), palette(false), { columns });
      for (const line of text.trimEnd().split('\n')) expect(line.length, line).toBeLessThanOrEqual(columns);
      // The id wraps in its cell (first line of the row) and in the failure header below the table.
      expect(text).toMatch(/│ FAIL +│ nested\/fold/);
      const details = text
        .slice(text.indexOf('\nFAIL '))
        .split('\n')
        .map((line) => line.trim())
        .join('');
      expect(details).toContain(`FAIL nested/folder/${long}`.slice(0, 100));
      expect(details).toContain('word word');
      expect(text).toContain('end');
    }
  });

  it('defaults to 100 columns when the output is not a terminal', async () => {
    const capture = captureStream();
    const rows = [failingRow({ id: `x.scenario.yaml#${'n'.repeat(150)}` })];
    await new TableReporter().onRunEnd(report(rows), { out: '/nonexistent', stdout: capture.stream, color: false });
    const lines = capture.text().trimEnd().split('\n');
    expect(Math.max(...lines.filter((line) => line.startsWith('│') || line.startsWith('┌')).map((line) => line.length))).toBe(100);
  });

  it('--quiet prints the failures and the summary only', async () => {
    const capture = captureStream();
    const rows = [failingRow(), row('ok.scenario.yaml', 'fine'), failingRow({ variant: 'terse' })];
    await new TableReporter().onRunEnd(report(rows), { out: '/nonexistent', stdout: capture.stream, color: true, quiet: true });
    const text = stripAnsi(capture.text());
    expect(text).not.toContain('┌');
    expect(text).not.toContain('ok.scenario.yaml#fine');
    expect(text).not.toContain('pass rate');
    expect(text.startsWith('FAIL refund.scenario.yaml#refund x2: base, terse\n')).toBe(true);
    expect(text.trimEnd().split('\n').at(-1)).toBe('3 runs (2 scenarios, 2 variants: not every combination): 1 passed, 2 failed, 0 errored (3.2 s)');
  });
});
