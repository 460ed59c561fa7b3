// BENCHMARKS.md from bench/results/latest.json (and peers.json): every target of the performance
// issue, its figure, the command behind it, and what was tried for the targets missed.
import { fmt } from './lib.mjs';

/** Span recording per scenario before this round's changes: `node bench/spans.mjs` on commit 02ebe4f (busy machine). */
export const SPANS_BASELINE_US = 62;

const pct = (value) => `${(value * 100).toFixed(1)}%`;
const x = (value) => `${fmt(value, 2)}x`;
const verdict = (ok) => (ok === null ? 'not measured' : ok ? 'met' : '**missed**');

/** What was tried for each target, printed under "Missed" when the figure misses it. */
const TRIED = {
  floor:
    "Streamed report.json and row-at-a-time secret scrubbing (no second copy of the report at the end), planned runs let go as they finish, batched spans.jsonl writes, no per-span attribute copy, a per-name memo for secret environment names (with content capture on, every run split every environment name again), precompiled schemas. Left, spread thin: the engine loop's per-turn promises and abort signals, loading and validating the YAML (js-yaml, the located checks, the content hash), and the verdicts parsing span attributes back from JSON.",
  cold: "Commands were already imported lazily, one per command. Every schema test-run, resume and the MCP server validate is now precompiled at build time (the --script schema among them). Spans are recorded by a small in-house TracerProvider behind @opentelemetry/api, and the OpenTelemetry SDK is loaded only for OTLP export (test-run now loads only the API; about 50 ms CPU less). What is left: Ajv, loaded to compile the agent's tool parameter schemas when the build is validated (about 95 ms CPU; those are user schemas, so they cannot be precompiled at build time; a compile cache on disk would be the next step). module.enableCompileCache() needs Node >= 22.1, so it was not used. With --mocks, msw adds about 0.5 s CPU (its main entry loads graphql).",
  spans:
    'Batched spans.jsonl writes (one write per ~64 KB instead of one per run), no per-span attribute copy, secret names remembered, and an in-house span behind @opentelemetry/api that ends straight into a SpanRecord (the SDK, with its ReadableSpan, is loaded only for OTLP export). What is left is mostly JSON serialisation of the records (the escaped attribute strings; the bytes must stay the same) and garbage collection.',
  memory:
    "report.json streamed row by row; the secret scrub no longer deep-copies the whole report; agentcheck run lets each planned run go once its row exists. Peak RSS at 50,000 fell from 1,465 MB to about 760-790 MB (the issue measured 881 MB before). Left: the rows themselves (about 3.8 KB of heap each, transcripts included, which report rows must keep), alive until every reporter has run, plus V8's heap headroom above the live set. Next step: spill finished rows to a temporary JSON Lines file and stream them into report.json and the reporters.",
  peers: 'Wall ratios on a machine this busy mostly measure the load; compare the CPU ratios. promptfoo at -j 8 spends much of its wall time waiting.',
  latency:
    "Measured against the process's wall time. Here the run is CPU-bound, not latency-bound: 640 one-call scenarios cost about 4.3 s of CPU (about 6.8 ms each, most of it in Node 20's fetch: Request objects, web streams, abort signals), more than the 2 s ideal. Connections are reused (about 2 per concurrent slot). Not changed this round; the next step is a cheaper HTTP path for the providers that keeps msw's interception for mocks and cassettes.",
};

/** This round's before and after, on the same busy machine (CPU or RSS, which load distorts least). */
const BEFORE_AFTER = [
  '| figure | before (02ebe4f) | after | command |',
  '|---|---|---|---|',
  '| 50,000 scenarios, peak RSS | 1,465 MB | 752-785 MB | `node dist/bin/agentcheck.js run <50,000 generated scenarios> --reporter json --out <dir>` under /usr/bin/time |',
  '| 5,000 scenarios, peak RSS | 246 MB | 162 MB | the same with 5,000 |',
  '| span recording per scenario (CPU) | 62 us | 28.8 us (npm run bench, own span recorder) | `node bench/spans.mjs` |',
  '| cold `test-run --json` with --script and --mocks (CPU) | 1.24 s | 1.13-1.17 s | the README example, see cold start |',
];

/** Renders BENCHMARKS.md. */
export function renderBenchmarks(r, peers) {
  const rows = [];
  const missed = [];
  const add = (key, what, target, measured, ok) => {
    rows.push(`| ${what} | ${target} | ${measured} | ${verdict(ok)} |`);
    if (ok === false && !missed.includes(key)) missed.push(key);
  };
  const f = r.floor;
  if (f)
    add(
      'floor',
      `1,000-scenario suite end to end through the CLI vs the same-work floor (bench/floor.mjs), alternated in one bench run`,
      '<= 2.0x floor (goal 1.5x)',
      `${x(f.ratio_wall)} wall (${fmt(f.agentcheck.wall_s)} s vs ${fmt(f.floor.wall_s)} s), ${x(f.ratio_cpu)} CPU (${fmt(f.agentcheck.cpu_s)} s vs ${fmt(f.floor.cpu_s)} s); ${f.agentcheck.passed}/${f.size} passed`,
      f.ratio_wall <= 2.0,
    );
  for (const c of r.cold?.commands ?? []) {
    if (c.target === null)
      rows.push(
        `| \`${c.name}\` cold start (not a target) | - | ${x(c.ratio_wall)} \`node -e ''\` wall (${fmt(c.wall_ms, 0)} ms), ${x(c.ratio_cpu)} CPU (${fmt(c.cpu_ms, 0)} ms) | - |`,
      );
    else
      add(
        'cold',
        `\`${c.name}\` cold start vs \`node -e ''\` (${fmt(r.cold.node.wall_ms, 0)} ms wall, ${fmt(r.cold.node.cpu_ms, 0)} ms CPU)`,
        `<= ${c.target}x`,
        `${x(c.ratio_wall)} wall (${fmt(c.wall_ms, 0)} ms), ${x(c.ratio_cpu)} CPU (${fmt(c.cpu_ms, 0)} ms)`,
        c.ratio_wall <= c.target,
      );
  }
  if (r.spans)
    add(
      'spans',
      'span recording per scenario (bench/spans.mjs, CPU)',
      `<= half of ${SPANS_BASELINE_US} us (before this round)`,
      `${fmt(r.spans.median_us, 1)} us (${pct(r.spans.median_us / SPANS_BASELINE_US)} of before), ${r.spans.spans_per_scenario} spans per scenario`,
      r.spans.median_us <= SPANS_BASELINE_US / 2,
    );
  const sizes = r.scale?.sizes ?? [];
  const big = sizes.find((s) => s.size === 50000);
  const marginal = r.scale?.marginal ?? [];
  const [m5, m50] = [marginal.find((m) => m.to === 5000), marginal.find((m) => m.to === 50000)];
  if (big)
    add(
      'memory',
      '50,000 scenarios: peak RSS (report.json written as a stream)',
      '<= 400 MB',
      `${fmt(big.rss_mb, 0)} MB, ${fmt(big.wall_s)} s wall, ${fmt(big.cpu_s)} s CPU, ${big.passed}/${big.rows} passed`,
      big.rss_mb <= 400,
    );
  if (m5 && m50)
    add(
      'memory',
      'marginal cost per scenario at 50,000 vs at 5,000: (t50k - t5k) / 45,000 vs (t5k - t1k) / 4,000',
      '<= 1.2x',
      `${x(m50.wall_ms / m5.wall_ms)} wall (${fmt(m50.wall_ms, 3)} vs ${fmt(m5.wall_ms, 3)} ms), ${x(m50.cpu_ms / m5.cpu_ms)} CPU (${fmt(m50.cpu_ms, 3)} vs ${fmt(m5.cpu_ms, 3)} ms)`,
      m50.wall_ms / m5.wall_ms <= 1.2,
    );
  for (const l of r.latency ?? [])
    add(
      'latency',
      `latency-bound: ${l.count} one-call scenarios, ${l.latency_ms} ms model, concurrency ${l.concurrency}; ideal N x latency / C = ${fmt(l.ideal_s)} s`,
      '>= 90% of ideal vs process wall time',
      `${pct(l.efficiency)} (process ${fmt(l.wall_s)} s wall, ${fmt(l.cpu_s)} s CPU; report duration_ms ${fmt(l.run_s)} s = ${pct(l.efficiency_run)}; ${l.connections} connections)`,
      l.efficiency >= 0.9,
    );
  for (const p of peers?.sizes ?? [])
    add(
      'peers',
      `promptfoo ${peers.promptfoo.version} vs agentcheck, ${p.cases.toLocaleString('en')} cases (npm run bench:peers)`,
      'lead 20x',
      `wall ${x(p.ratio_wall)} (${fmt(p.promptfoo.wall_s)} s vs ${fmt(p.agentcheck.wall_s)} s), CPU ${x(p.ratio_cpu)} (${fmt(p.promptfoo.cpu_s)} vs ${fmt(p.agentcheck.cpu_s)} s), peak RSS ${x(p.ratio_rss)} (${fmt(p.promptfoo.rss_mb, 0)} vs ${fmt(p.agentcheck.rss_mb, 0)} MB)`,
      p.ratio_wall >= 20,
    );

  const lines = [
    '# Benchmarks',
    '',
    'Measured by `npm run bench` (bench/run-all.mjs) and `npm run bench:peers` (bench/peers.mjs); never by timed tests.',
    `Machine: ${r.machine.cores} cores, ${r.machine.memory_gb} GB, ${r.machine.cpu}, Node ${r.machine.node}; measured ${r.measured_at}`,
    `(per benchmark: ${Object.entries(r.measured ?? {})
      .map(([name, at]) => `${name} ${at}`)
      .join(', ')}). Medians of BENCH_RUNS=${r.runs} runs unless noted.`,
    'Raw numbers: bench/results/latest.json and bench/results/peers.json. Ratios are of wall times unless',
    'noted; CPU (user + system, from /usr/bin/time) is given beside them because it is steadier on a shared machine.',
    '',
    ...(r.note ? [`**${r.note}**`, ''] : []),
    'The suites are generated by bench/generate-suite.mjs: each scenario makes 3 tool calls (two in parallel,',
    'then the terminal tool) on the scripted model, records 7 spans and runs 3 checks (tool_called with args,',
    'tool_order, output).',
    '',
    '## Against the targets',
    '',
    '| what | target | measured | |',
    '|---|---|---|---|',
    ...rows,
    '',
  ];
  lines.push(
    '### This round, before and after',
    '',
    'Measured by hand on the same busy machine, before and after the changes of this round.',
    '',
    ...BEFORE_AFTER,
    '',
  );
  if (sizes.length) {
    lines.push('### Suites by size', '', '| scenarios | wall | CPU | peak RSS | passed |', '|---|---|---|---|---|');
    for (const s of sizes)
      lines.push(`| ${s.size.toLocaleString('en')} | ${fmt(s.wall_s)} s | ${fmt(s.cpu_s)} s | ${fmt(s.rss_mb, 0)} MB | ${s.passed}/${s.rows} |`);
    lines.push('');
  }
  if (r.query) {
    lines.push(
      '## querySpans over 1,000,000 spans',
      '',
      '| query | matched | median |',
      '|---|---|---|',
      ...r.query.map((q) => `| ${q.name} | ${q.matched} | ${fmt(q.median_ms, 1)} ms |`),
      '',
    );
  }
  lines.push(
    '## Commands',
    '',
    'One benchmark alone: `npm run bench -- floor` (also `scale`, `cold`, `spans`, `latency`, `query`); the others keep',
    'their last figures. `BENCH_RUNS=3 npm run bench` sets the runs.',
    '',
  );
  if (f)
    lines.push(
      `- floor: \`${f.command}\`, alternated ${f.runs} times (agentcheck wall ${f.agentcheck.wall_all.map((w) => fmt(w)).join(', ')} s; floor ${f.floor.wall_all.map((w) => fmt(w)).join(', ')} s)`,
    );
  for (const s of sizes)
    lines.push(`- scale ${s.size}: \`${s.command}\` (${s.runs} run${s.runs > 1 ? 's' : ''}: ${s.wall_all.map((w) => fmt(w)).join(', ')} s)`);
  for (const c of r.cold?.commands ?? []) lines.push(`- cold start: \`${c.command}\`, against \`node -e ''\`, alternated ${r.cold.runs} times`);
  if (r.spans)
    lines.push(
      `- spans: \`${r.spans.command}\`: one trace of the bench suite (its 7 recorded spans) replayed ${r.spans.scenarios} times per round through the OpenTelemetry API into agentcheck's tracer (SDK spans, the span store with the suite's secret scrubbing, records), taken as a run's evidence and written to spans.jsonl as \`agentcheck run\` writes it; CPU per scenario, median of ${r.spans.rounds} rounds after a warm-up round. The engine's own work to compute attribute values is not counted. The baseline (${SPANS_BASELINE_US} us) is the same command on the code before this round (commit 02ebe4f).`,
    );
  for (const l of r.latency ?? [])
    lines.push(
      `- latency: \`node bench/latency.mjs\`: \`${l.command}\` against a node:http OpenAI-compatible server on 127.0.0.1 (in the bench process) answering after ${l.latency_ms} ms; efficiency = N x latency / C divided by the process's wall time`,
    );
  lines.push('- query: `node bench/query.mjs` (1,000,000 synthetic spans in 1,000 traces, in memory)');
  if (peers)
    lines.push(
      `- peers: \`npm run bench:peers\` (measured ${peers.measured_at}, ${peers.runs} run(s) per size): promptfoo installed into a temporary folder, \`${peers.promptfoo.command}\` on a local stub provider (a custom JS provider answering with one tool call) with three assertions per case (two javascript, one contains); its results file is checked (every case ran and passed its 3 assertions). agentcheck: \`${peers.agentcheck.command}\` on the same number of generated scenarios (more work per case). \`promptfoo --version\` alone: ${fmt(peers.promptfoo.version_wall_s)} s.`,
    );
  else lines.push('- peers: not measured in this run: `npm run bench:peers` installs promptfoo from the npm registry and writes bench/results/peers.json.');
  lines.push('', '## Missed, and what was tried', '');
  if (!missed.length) lines.push('Every target above is met.');
  for (const key of missed) lines.push(`- **${key}**: ${TRIED[key] ?? 'see the table above.'}`);
  lines.push('');
  return `${lines.join('\n')}\n`;
}
