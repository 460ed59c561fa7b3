// Span recording cost per scenario, measured alone (in process, CPU time): one scenario's spans
// (a trace as the 1,000-scenario suite records it: an invoke_agent root, 3 chat and 3 execute_tool
// spans with the engine's attributes) are replayed through the OpenTelemetry API into the tracer
// agentcheck installs (SDK spans, the span store with the suite's secret scrubbing, records),
// taken from the store as a run's evidence, and written to spans.jsonl as `agentcheck run` writes
// it. What the engine does to compute attribute values (serialising messages) is not counted.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { generateSuite } from './generate-suite.mjs';
import { CLI, median, timeCommand } from './lib.mjs';

const KIND = { internal: SpanKind.INTERNAL, client: SpanKind.CLIENT, server: SpanKind.SERVER };

/** One real trace of the bench suite (its spans.jsonl records), recorded by the CLI once. */
function sampleTrace(dir) {
  generateSuite(join(dir, 'suite'), 1);
  const result = timeCommand('node', [CLI, 'run', join(dir, 'suite'), '--reporter', 'json', '--out', join(dir, 'out')]);
  if (result.status !== 0) throw new Error(`sample run exited ${result.status}: ${result.stderr.slice(-400)}`);
  return readFileSync(join(dir, 'out/spans.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

/** Replays `records` (root first) as live spans through `tracer`; returns the new trace id. */
function replay(tracer, records) {
  const [rootRecord, ...children] = records;
  const root = tracer.startSpan(rootRecord.name, { kind: KIND[rootRecord.kind], attributes: rootRecord.attributes });
  const parent = trace.setSpan(context.active(), root);
  for (const record of children) {
    const span = tracer.startSpan(record.name, { kind: KIND[record.kind], attributes: record.attributes }, parent);
    if (record.status === 'error') span.setStatus({ code: SpanStatusCode.ERROR, message: record.status_message });
    span.end();
  }
  root.end();
  return root.spanContext().traceId;
}

/** Median CPU microseconds per scenario for span recording, over `rounds` rounds of `scenarios`. */
export async function benchSpans({ scenarios = 2000, rounds = 5 } = {}) {
  const { installTracing } = await import('../dist/src/spans/tracing.js');
  const { SpansFile } = await import('../dist/src/runner/report/spans-file.js');
  const { runRedactor } = await import('../dist/src/runner/secrets/run-secrets.js');
  const dir = mkdtempSync(join(tmpdir(), 'agentcheck-bench-spans-'));
  try {
    const records = sampleTrace(dir);
    const { tracer, store } = installTracing();
    // As `agentcheck run` does: every span is scrubbed of the run's keys as it ends.
    store.redactWith(runRedactor(process.env, []));
    const perScenario = [];
    for (let round = 0; round <= rounds; round++) {
      const file = new SpansFile(join(dir, `spans-${round}.jsonl`));
      const before = process.cpuUsage();
      for (let i = 0; i < scenarios; i++) file.write(store.take(replay(tracer, records)));
      file.close();
      const used = process.cpuUsage(before);
      if (file.failure) throw new Error(file.failure);
      // Round 0 warms the JIT up and is not counted.
      if (round > 0) perScenario.push((used.user + used.system) / scenarios);
      rmSync(join(dir, `spans-${round}.jsonl`), { force: true });
    }
    return { spans_per_scenario: records.length, scenarios, rounds, median_us: median(perScenario), all_us: perScenario, command: 'node bench/spans.mjs' };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await benchSpans(), null, 2));
