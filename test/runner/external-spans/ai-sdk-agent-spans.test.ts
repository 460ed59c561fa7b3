import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { startExternalSpanCollector, type ExternalSpanCollector } from '../../../src/runner/external-spans/external-span-collector.js';
import type { SpanRecord } from '../../../src/spans/span-record.js';
import { buildEvidence } from '../../../src/verdicts/index.js';
import { scriptedChat, startLocalServer, type LocalServer } from '../../helpers/openai-server.js';

const AGENT = fileURLToPath(new URL('../../../scenarios/external/ai-sdk/agent.mjs', import.meta.url));
const WORKSPACE = fileURLToPath(new URL('../../../scenarios/external/ai-sdk/workspace', import.meta.url));

let server: LocalServer | undefined;
let collector: ExternalSpanCollector | undefined;

afterEach(async () => {
  await server?.close();
  await collector?.close();
  server = collector = undefined;
});

const root: SpanRecord = {
  trace_id: '4bf92f3577b34da6a3ce929d0e0e4736',
  span_id: '00f067aa0ba902b7',
  parent_id: null,
  name: 'invoke_agent ai-sdk',
  kind: 'internal',
  status: 'ok',
  start_ms: 1,
  end_ms: 2,
  duration_ms: 1,
  attributes: { 'gen_ai.operation.name': 'invoke_agent' },
  ended: true,
};

describe("the Vercel AI SDK example agent's own spans", () => {
  it("reach the receiver and become the run's tool calls and model calls", async () => {
    server = await startLocalServer({
      model: scriptedChat([
        { toolCalls: [{ id: 'call_a', name: 'list_files', arguments: '{}' }] },
        {
          toolCalls: [
            { id: 'call_b', name: 'read_file', arguments: '{"path":"notes.md"}' },
            { id: 'call_c', name: 'read_file', arguments: '{"path":"nope.md"}' },
          ],
        },
        { text: 'Version 1.4.0 retries on 503.' },
      ]),
    });
    collector = await startExternalSpanCollector();
    const run = await execa('node', [AGENT], {
      cwd: WORKSPACE,
      input: JSON.stringify({ messages: [{ role: 'user', content: 'What changed in 1.4.0?' }], context: {} }),
      env: {
        OPENAI_BASE_URL: server.baseUrl('model'),
        OPENAI_API_KEY: 'sk-local',
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
        TRACEPARENT: `00-${root.trace_id}-${root.span_id}-01`,
      },
      reject: false,
    });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('Version 1.4.0 retries on 503.');
    expect(server.of('model')).toHaveLength(3);

    const spans = await collector.collect([root]);
    expect(spans.every((span) => span.trace_id === root.trace_id)).toBe(true);
    const evidence = buildEvidence({ spans: [root, ...spans] });
    expect(evidence.incomplete).toBeNull();
    expect(evidence.turns).toBe(3);
    // The two parallel calls of one step can start in the same millisecond: compare them as a set.
    const calls = evidence.calls.map((call) => [call.name, call.call_id, call.is_error, call.nested]);
    expect(calls[0]).toEqual(['list_files', 'call_a', false, false]);
    expect(calls.slice(1).sort()).toEqual([
      ['read_file', 'call_b', false, false],
      ['read_file', 'call_c', true, false],
    ]);
    expect(evidence.calls[0].result).toEqual(['notes.md']);
    const notes = evidence.calls.find((call) => call.call_id === 'call_b')!;
    expect(notes.args).toEqual({ path: 'notes.md' });
    expect(notes.result).toMatchObject({ content: expect.stringContaining('retries on 503') });
  }, 120_000);
});
