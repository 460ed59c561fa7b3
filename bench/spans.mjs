// Span recording cost per scenario, measured alone (in process, CPU time): one scenario's spans
// (a trace as the 1,000-scenario suite records it: an invoke_agent root, 3 chat and 3 execute_tool
// spans with the engine's attributes) are replayed through the OpenTelemetry API into the tracer
// agentcheck installs (SDK spans, the span store with the suite's secret scrubbing, records),
// taken from the store as a run's evidence, and written to spans.jsonl as `agentcheck run` writes
// it. What the engine does to compute attribute values (serialising messages) is not counted.
// `npm run bench -- spans` measures the current code and the code before this round (baseline.mjs)
// alternately, each round in a process of its own, and reports the ratio of their medians.
// Usage: node bench/spans.mjs [--root CHECKOUT] [--rounds N] (one checkout, JSON on stdout)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { BASELINE_COMMIT, baselineRoot } from './baseline.mjs';
import { generateSuite } from './generate-suite.mjs';
import { median, ROOT, timeCommand } from './lib.mjs';

const KIND = { internal: SpanKind.INTERNAL, client: SpanKind.CLIENT, server: SpanKind.SERVER };

/** One real trace of the bench suite (its spans.jsonl records), recorded by the CLI once. */
function sampleTrace(root, dir) {
  generateSuite(join(dir, 'suite'), 1);
  const result = timeCommand('node', [join(root, 'dist/bin/agentcheck.js'), 'run', join(dir, 'suite'), '--reporter', 'json', '--out', join(dir, 'out')]);
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

/**
 * Median CPU microseconds per scenario for span recording in the checkout `root`, over `rounds`
 * rounds of `scenarios`, in this process.
 */
export async function measureSpans({ root = ROOT, scenarios = 2000, rounds = 5 } = {}) {
  const load = (path) => import(pathToFileURL(join(root, 'dist/src', path)).href);
  const { installTracing } = await load('spans/tracing.js');
  const { SpansFile } = await load('runner/report/spans-file.js');
  const { runRedactor } = await load('runner/secrets/run-secrets.js');
  const dir = mkdtempSync(join(tmpdir(), 'agentcheck-bench-spans-'));
  try {
    const records = sampleTrace(root, dir);
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

// Looked for once, by the parent only: the measuring children need not.
let pin;

/**
 * The argv prefix that runs a measuring child on core 0, where taskset is at hand (Linux): the two
 * cores of a machine of this kind need not be alike (one measured the same code at 39-49 us a
 * scenario on one core and 57-67 us on the other, a sibling thread of the host's busy), so the
 * current code and the baseline are compared on one core rather than on whichever each landed.
 */
function pinArgs() {
  pin ??= spawnSync('taskset', ['-c', '0', 'true']).status === 0 ? ['taskset', '-c', '0'] : [];
  return pin;
}

/** One measureSpans in a process of its own (a fresh JIT for each checkout), on the core pinArgs() names. */
function measureInChild(root, rounds) {
  const argv = [...pinArgs(), 'node', join(ROOT, 'bench/spans.mjs'), '--root', root, '--rounds', String(rounds)];
  const result = spawnSync(argv[0], argv.slice(1), { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`node bench/spans.mjs --root ${root} exited ${result.status}: ${result.stderr.slice(-400)}`);
  return JSON.parse(result.stdout);
}

/**
 * The current code against the baseline, alternated `alternations` times (each a child process
 * of `rounds` rounds): medians of the children's medians, and the median of the ratios of each
 * pair (a child of each checkout, back to back). Without a baseline checkout (no git history), the
 * current figure alone, with the reason.
 */
export async function benchSpans({ rounds = 5, alternations = 5 } = {}) {
  let base;
  let baselineProblem = null;
  try {
    base = baselineRoot();
  } catch (error) {
    baselineProblem = error.message;
  }
  const current = [];
  const baseline = [];
  let sample;
  for (let i = 0; i < alternations; i++) {
    sample = measureInChild(ROOT, rounds);
    current.push(sample.median_us);
    if (base) baseline.push(measureInChild(base, rounds).median_us);
  }
  const medianUs = median(current);
  const baselineUs = base ? median(baseline) : null;
  // Each pair ran back to back, so a stretch of a busy host slows both of its children alike.
  const pairedRatios = base ? current.map((us, i) => us / baseline[i]) : null;
  return {
    spans_per_scenario: sample.spans_per_scenario,
    scenarios: sample.scenarios,
    rounds,
    alternations,
    median_us: medianUs,
    all_us: current,
    baseline_commit: BASELINE_COMMIT.slice(0, 7),
    baseline_us: baselineUs,
    baseline_all_us: baseline,
    baseline_problem: baselineProblem,
    paired_ratios: pairedRatios,
    ratio: pairedRatios ? median(pairedRatios) : null,
    pinned: pinArgs().length > 0 ? 'taskset -c 0' : null,
    command: 'node bench/spans.mjs',
  };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { root: { type: 'string' }, rounds: { type: 'string' } } });
  const rounds = values.rounds === undefined ? 5 : Number(values.rounds);
  console.log(JSON.stringify(await measureSpans({ root: values.root ?? ROOT, rounds }), null, 2));
}
