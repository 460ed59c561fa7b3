import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';
import { attr, deadPort, startOtlpReceiver, type OtlpReceiver } from '../helpers/otlp-receiver.js';
import { runMain } from '../helpers/run-main.js';
import { AGENT_YAML, passingScenario, runCli } from './cli.js';

const SECRET = 'e2e-s3cret';
let receiver: OtlpReceiver | undefined;

afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

function suite(): string {
  return tempDir({ 'agent.yaml': AGENT_YAML, 'a.scenario.yaml': passingScenario('first'), 'b.scenario.yaml': passingScenario('second') });
}

// The export of an external agent's joined spans is tested with its other spans, in
// external-spans.test.ts, on the same run. The built CLI exports over --otlp, warns of a dead
// endpoint and refuses a bad URL; the endpoint from the environment and a partial success, which
// only the run's export reads, run the CLI's entry in-process (runMain).
describe('agentcheck run --otlp (end to end)', () => {
  it("exports every run's spans to the --otlp endpoint and exits 0", async () => {
    receiver = await startOtlpReceiver();
    const dir = suite();
    const result = await runCli(['run', '.', '--otlp', receiver.url, '--out', join(dir, 'out'), '--reporter', 'json'], dir, {
      OTEL_EXPORTER_OTLP_HEADERS: `authorization=Bearer%20${SECRET}`,
    });
    expect(result.exitCode, result.all).toBe(0);
    expect(result.stderr).not.toMatch(/OTLP/);
    expect(receiver.received.every((request) => request.path === '/v1/traces' && request.headers.authorization === `Bearer ${SECRET}`)).toBe(true);

    const spans = receiver.spans();
    const roots = spans.filter((span) => attr(span, 'gen_ai.operation.name') === 'invoke_agent');
    expect(roots).toHaveLength(2);
    for (const root of roots) {
      expect(root.name).toBe('invoke_agent E2E bot');
      expect(JSON.parse(attr(root, 'agentcheck.resolved_config') as string).tools.map((t: { name: string }) => t.name)).toEqual(['lookup', 'finish']);
      const trace = spans.filter((span) => span.traceId === root.traceId);
      expect(trace.filter((span) => attr(span, 'gen_ai.operation.name') === 'chat').length).toBe(3);
      expect(trace.filter((span) => attr(span, 'gen_ai.operation.name') === 'execute_tool').map((span) => attr(span, 'gen_ai.tool.name'))).toEqual([
        'lookup',
        'finish',
      ]);
    }
    expect(result.all).not.toContain(SECRET);
  });

  it('exports to OTEL_EXPORTER_OTLP_ENDPOINT without a flag', async () => {
    receiver = await startOtlpReceiver();
    const dir = suite();
    const result = await runMain(['run', '.', '--out', join(dir, 'out'), '--reporter', 'json'], dir, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url });
    expect(result.exitCode, result.all).toBe(0);
    expect(receiver.spans().filter((span) => attr(span, 'gen_ai.operation.name') === 'invoke_agent')).toHaveLength(2);
  });

  it('warns once about a dead endpoint, without secrets, and still exits 0', async () => {
    const port = await deadPort();
    const dir = suite();
    const result = await runCli(['run', '.', '--otlp', `http://127.0.0.1:${port}`, '--out', join(dir, 'out'), '--reporter', 'table,json'], dir, {
      OTEL_EXPORTER_OTLP_HEADERS: `authorization=Bearer%20${SECRET}`,
      OTEL_EXPORTER_OTLP_TIMEOUT: '500',
    });
    expect(result.exitCode, result.all).toBe(0);
    const lines = result.stderr.split('\n').filter((line) => line.includes('OTLP'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^agentcheck: warning: OTLP export to http://127\\.0\\.0\\.1:${port}/v1/traces \\(from --otlp\\) failed: .*ECONNREFUSED.*the suite result is unaffected`,
      ),
    );
    expect(result.all).not.toContain(SECRET);
    expect(result.stdout).toMatch(/2 scenarios: 2 passed/);
  });

  it('warns once about spans a collector rejected in a partial success, its reason printable, and still exits 0', async () => {
    // A bidi override and a C1 control in the collector's words: escaped inside the quoted reason.
    receiver = await startOtlpReceiver(200, { rejectedSpans: 3, errorMessage: '3 spans had bad \u202eattributes\u009b' });
    const dir = suite();
    const result = await runMain(['run', '.', '--otlp', receiver.url, '--out', join(dir, 'out'), '--reporter', 'json'], dir);
    expect(result.exitCode, result.all).toBe(0);
    const lines = result.stderr.split('\n').filter((line) => line.includes('OTLP'));
    expect(lines).toEqual([
      expect.stringMatching(
        /^agentcheck: warning: OTLP export to .*\/v1\/traces \(from --otlp\) failed: the collector rejected \d+ span\(s\): "3 spans had bad \\u202eattributes\\u009b"; \d+ of \d+ spans were not exported/,
      ),
    ]);
  });

  it('exits 2 for a malformed --otlp URL before running anything', async () => {
    const dir = suite();
    const result = await runCli(['run', '.', '--otlp', 'localhost:4318', '--out', join(dir, 'out')], dir);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--otlp: expected an http:// or https:// URL');
  });
});
