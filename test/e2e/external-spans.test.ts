import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Report } from '../../src/runner/report/report.js';
import { describe, expect, it } from 'vitest';
import { startOtlpReceiver } from '../helpers/otlp-receiver.js';
import { shared } from '../helpers/shared-fixture.js';
import { runCli } from './cli.js';

const SECRET = 'ext-span-s3cret-value';

// A plain agent whose span export outlives it: a detached helper (spawned without the run's tag,
// so nothing ends it with the agent) starts the OTLP request before the agent exits and sends
// the rest of the body half a second after the agent is gone (the wait allows 5 s). The receiver must wait for it: the checks
// below can only pass if those spans were collected before they ran.
const AGENT = `import { spawn } from 'node:child_process';
const input = JSON.parse(await new Promise((done) => { let t = ''; process.stdin.on('data', (c) => (t += c)); process.stdin.on('end', () => done(t)); }));
const env = { ...process.env };
delete env.AGENTCHECK_RUN_TAG;
const helper = spawn(process.execPath, [new URL('./late-sender.mjs', import.meta.url).pathname], { detached: true, stdio: ['ignore', 'ignore', 'ignore', 'ipc'], env });
await new Promise((done) => helper.once('message', done));
helper.disconnect();
helper.unref();
process.stdout.write('looked up ' + input.messages[0].content);
`;

const SENDER = `import { request } from 'node:http';
const [, traceId, parentId] = process.env.TRACEPARENT.split('-');
const span = (id, name, attributes, status) => ({ traceId, spanId: id, parentSpanId: parentId, name, startTimeUnixNano: String(BigInt(Date.now()) * 1000000n), endTimeUnixNano: String(BigInt(Date.now()) * 1000000n), attributes, status });
const body = JSON.stringify({ resourceSpans: [{ scopeSpans: [{ scope: { name: 'late' }, spans: [
  span('1111111111111111', 'lookup', [
    { key: 'openinference.span.kind', value: { stringValue: 'TOOL' } },
    { key: 'tool.name', value: { stringValue: 'lookup' } },
    { key: 'input.value', value: { stringValue: '{"id":"7"}' } },
    { key: 'output.value', value: { stringValue: '{"token":"${SECRET}","status":"ok"}' } },
  ]),
] }] }] });
const parent = process.ppid;
const req = request(process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } });
req.on('response', (res) => res.resume());
req.flushHeaders();
req.write(body.slice(0, 40));
process.send('started');
const alive = () => { try { process.kill(parent, 0); return true; } catch { return false; } };
while (alive()) await new Promise((done) => setTimeout(done, 10));
// Well after the turn ended: only the receiver's wait for an export in flight collects it.
await new Promise((done) => setTimeout(done, 500));
req.end(body.slice(40));
`;

const BUILD = `id: late-agent
external:
  command: [node, ./agent.mjs]
  tools:
    - {name: lookup, parameters: {type: object, properties: {id: {type: string}}}}
`;

const SCENARIO = `name: spans after exit
agent: agent.yaml
inputs: {messages: [{role: user, content: "id 7"}]}
model: {script: [{text: unused}]}
expect:
  checks:
    - tool_called: {tool: lookup, args: {id: "7"}}
    - tool_returned: {tool: lookup, result: {status: ok}}
    - output: {contains: looked up id 7}
`;

/**
 * An external agent sending mistyped bridge requests and exports with a duplicate or all-zero span
 * id: a third scenario of the late-spans suite below (one run), whose row errors saying so.
 */
const MALFORMED_AGENT = `const [, traceId, parentId] = process.env.TRACEPARENT.split('-');
// Each answer as its status and error message (OpenAI, Anthropic and google.rpc.Status shapes).
const post = async (url, body) => {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = await res.json();
  return res.status + ' ' + (json.error?.message ?? json.message);
};
const user = [{ role: 'user', content: 'hi' }];
const lines = [
  await post(process.env.OPENAI_BASE_URL + '/chat/completions', { model: 'm', messages: user, stream: 'yes' }),
  await post(process.env.ANTHROPIC_BASE_URL + '/v1/messages', { model: 'm', max_tokens: 'ten', messages: user }),
];
const span = (spanId, name, trace = traceId) => ({ traceId: trace, spanId, parentSpanId: parentId, name, startTimeUnixNano: '1', endTimeUnixNano: '2' });
const send = (...spans) => post(process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, { resourceSpans: [{ scopeSpans: [{ spans }] }] });
lines.push(await send(span('c400000000000001', 'd1'), span('c400000000000001', 'd2')));
lines.push(await send(span('0000000000000000', 'zero span id')));
lines.push(await send(span('c400000000000002', 'zero trace id', '0'.repeat(32))));
process.stdout.write(lines.join('\\n'));
`;

const MALFORMED_SCENARIO = `name: malformed requests
agent: malformed-agent.yaml
inputs: {messages: [{role: user, content: hi}]}
model: {script: [{text: unused}]}
expect:
  checks:
    - output: {contains: '400 stream must be true or false, got string "yes"'}
    - output: {contains: '400 max_tokens must be a whole number 1 or more, got string "ten"'}
`;

/** The spans of `out`/spans.jsonl. */
const spansOf = (out: string) =>
  readFileSync(join(out, 'spans.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));

describe("an external agent's own spans (end to end)", () => {
  // One run of the AI SDK example exporting to a local receiver (--otlp): read by the test of what
  // it records and by the test that the export holds what spans.jsonl holds.
  const aiSdk = shared(async (dir) => {
    const receiver = await startOtlpReceiver();
    try {
      const out = dir();
      const result = await runCli(['run', 'scenarios/external/ai-sdk', '--otlp', receiver.url, '--out', out, '--reporter', 'json']);
      return { result, out, exported: receiver.spans() };
    } finally {
      await receiver.close();
    }
  });

  it('the AI SDK example passes offline: its tool calls counted once, a thrown tool failing the run', async () => {
    const { result, out } = await aiSdk();
    expect(result.exitCode, result.all).toBe(0);
    const spans = spansOf(out);
    const calls = spans.filter((span) => span.attributes['gen_ai.operation.name'] === 'execute_tool');
    // Bridge spans only: the agent's ai.toolCall spans of the same calls were left out.
    expect(calls.map((span) => span.name).sort()).toEqual(['execute_tool list_files', 'execute_tool read_file', 'execute_tool read_file']);
    expect(calls.filter((span) => span.status === 'error').map((span) => span.attributes['error.type'])).toEqual(['Error']);
    expect(spans.filter((span) => span.name === 'ai.generateText' && span.attributes['agentcheck.external.exported'] === true)).toHaveLength(2);
  }, 300_000);

  it("--otlp exports what spans.jsonl holds: an external agent's joined spans, and a bridge span its agent marked failed", async () => {
    const { result, out, exported: spans } = await aiSdk();
    expect(result.exitCode, result.all).toBe(0);
    const local = spansOf(out) as Array<{ span_id: string; name: string; status: string }>;
    const exported = new Map(spans.map((span) => [span.spanId, span]));
    expect([...exported.keys()].sort()).toEqual(local.map((span) => span.span_id).sort());
    expect(local.some((span) => !span.name.startsWith('invoke_agent') && !span.name.startsWith('chat') && !span.name.startsWith('execute_tool'))).toBe(true);
    const codes = { unset: 0, ok: 1, error: 2 } as const;
    for (const span of local) expect(exported.get(span.span_id)?.status?.code ?? 0, span.name).toBe(codes[span.status as keyof typeof codes]);
  }, 300_000);

  // One suite of two scenarios whose agent's late export outlives it: late.scenario.yaml's sender
  // is spawned without the run's tag, tagged.scenario.yaml's keeps it. Each test reads its own row.
  const lateSpans = shared(async (dir) => {
    // The same sender, with AGENTCHECK_RUN_TAG: before, the run's sweep ended it (SIGTERM) right
    // after the agent exited, before the wait for late spans, and its export was lost.
    const tagged = AGENT.replace('delete env.AGENTCHECK_RUN_TAG;\n', '');
    expect(tagged).not.toContain('AGENTCHECK_RUN_TAG');
    const cwd = dir({
      'agent.yaml': BUILD,
      'agent.mjs': AGENT,
      'late-sender.mjs': SENDER,
      'late.scenario.yaml': SCENARIO,
      'tagged-agent.yaml': BUILD.replace('id: late-agent', 'id: tagged-agent').replace('./agent.mjs', './tagged-agent.mjs'),
      'tagged-agent.mjs': tagged,
      'tagged.scenario.yaml': SCENARIO.replace('agent: agent.yaml', 'agent: tagged-agent.yaml'),
      'malformed-agent.yaml': 'id: malformed\nexternal:\n  command: [node, ./malformed-agent.mjs]\n',
      'malformed-agent.mjs': MALFORMED_AGENT,
      'malformed.scenario.yaml': MALFORMED_SCENARIO,
    });
    const out = join(cwd, 'out');
    const result = await runCli(['run', '.', '--out', out, '--reporter', 'json,md'], cwd, { SERVICE_API_KEY: SECRET });
    const report = readFileSync(join(out, 'report.json'), 'utf8');
    const spansFile = readFileSync(join(out, 'spans.jsonl'), 'utf8');
    // Each row's spans, by the trace of its run.
    const traceOf = (file: string) => (JSON.parse(report) as Report).scenarios.find((row) => row.id.startsWith(`${file}#`))?.test_run?.trace_id;
    const spans = (file: string) => spansOf(out).filter((span) => span.trace_id === traceOf(file));
    const row = (file: string) => (JSON.parse(report) as Report).scenarios.find((r) => r.id.startsWith(`${file}#`))!;
    return { result, out, report, spansFile, spans, row };
  });

  it("waits for the late export of a child that keeps the run's tag before ending it with the run's leftovers", async () => {
    const { result, report, spans, row } = await lateSpans();
    // Exit 1 from the malformed row alone (the last test): the two late rows pass.
    expect(result.exitCode, result.all + report.slice(0, 4000)).toBe(1);
    expect((JSON.parse(report) as Report).summary, report.slice(0, 4000)).toMatchObject({ total: 3, passed: 2, errored: 1 });
    expect(row('tagged.scenario.yaml').status).toBe('pass');
    expect(spans('tagged.scenario.yaml').find((span) => span.name === 'execute_tool lookup')?.attributes).toMatchObject({
      'agentcheck.external.exported': true,
    });
  }, 300_000);

  it('collects spans that arrive after the agent exited before the checks run, scrubbing secrets', async () => {
    const { result, report, spansFile, spans: spansIn, row } = await lateSpans();
    expect(result.exitCode, result.all + report.slice(0, 4000)).toBe(1);
    expect((JSON.parse(report) as Report).summary, report.slice(0, 4000)).toMatchObject({ total: 3, passed: 2, errored: 1 });
    expect(row('late.scenario.yaml').status).toBe('pass');
    const spans = spansIn('late.scenario.yaml');
    const lookup = spans.find((span) => span.name === 'execute_tool lookup');
    const root = spans.find((span) => span.parent_id === null);
    expect(lookup).toMatchObject({
      trace_id: root.trace_id,
      parent_id: root.span_id,
      attributes: { 'agentcheck.external.exported': true, 'gen_ai.tool.call.arguments': '{"id":"7"}' },
    });
    expect(spansFile).not.toContain(SECRET);
    expect(report).not.toContain(SECRET);
    expect(result.all).not.toContain(SECRET);
  }, 300_000);

  it('a mistyped bridge request gets a 400 naming the field, and an export with a duplicate or all-zero span id is listed as rejected with the reason, erroring the row', async () => {
    // One run with the late-spans suite (lateSpans): this row is the one that errors.
    const { result, out, row: rowOf, spans: spansIn } = await lateSpans();
    // Spans the agent sent were refused: the row errors saying so.
    expect(result.exitCode, result.all).toBe(1);
    const row = rowOf('malformed.scenario.yaml');
    expect(row.status).toBe('error');
    expect(row.error?.type).toBe('OTLP_EXPORT_REFUSED');
    expect(row.error?.message).toContain("the run's OTLP receiver refused 3 exports of the agent's spans, which are not evidence: HTTP 400 ");
    expect(row.error?.message).toContain('(and 2 more, listed on the root span as agentcheck.external.rejected)');
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain("the run's OTLP receiver refused 3 exports");
    // What the run did is kept: its output.
    expect(row.test_run?.output).toContain('400 stream must be true or false, got string "yes"');
    // This row's spans (its trace), and the root among them.
    const spans = spansIn('malformed.scenario.yaml');
    expect(spans.length).toBeGreaterThan(0);
    const root = spans.find((span) => span.parent_id === null);
    const at = 'resourceSpans[0].scopeSpans[0].spans[';
    expect(root.attributes['agentcheck.external.rejected']).toEqual([
      `400 ${at}1].spanId: span id c400000000000001 is also the id of ${at}0] in this trace: each span needs its own id`,
      `400 ${at}0].spanId: expected a span id that is not all zeros (OTLP's invalid id), got "0000000000000000"`,
      `400 ${at}0].traceId: expected a trace id that is not all zeros (OTLP's invalid id), got "00000000000000000000000000000000"`,
    ]);
    // None of the refused spans is anywhere in the file (the all-zero trace id's is of no row's trace).
    expect(spansOf(out).filter((span) => ['d1', 'd2', 'zero span id', 'zero trace id'].includes(span.name))).toEqual([]);
  }, 300_000);
});
