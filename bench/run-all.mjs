// `npm run bench`: runs every benchmark against the performance targets and writes BENCHMARKS.md
// (and bench/results/latest.json). Figures are medians of BENCH_RUNS runs (default 5).
// `npm run bench -- NAME...` runs only the named benchmarks (floor, cold, spans, latency, query,
// scale); the others keep their figures from bench/results/latest.json. BENCH_NOTE, when set, is
// printed under the heading of BENCHMARKS.md (e.g. that the machine was busy).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchColdStart } from './cold-start.mjs';
import { benchLatency } from './latency.mjs';
import { ensureBuilt, fmt, machine, ROOT } from './lib.mjs';
import { benchQuery } from './query.mjs';
import { renderBenchmarks } from './render.mjs';
import { benchSpans } from './spans.mjs';
import { benchFloor, benchScale } from './suite.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const BENCHES = {
  floor: () => benchFloor({ runs: RUNS }),
  cold: () => benchColdStart({ runs: Math.max(RUNS, 10) }),
  spans: () => benchSpans({ rounds: RUNS }),
  latency: () => benchLatency({ runs: RUNS }),
  query: () => benchQuery({ runs: RUNS }),
  // Last: the 50,000-scenario suite is the longest.
  scale: () => benchScale({ runs: Math.max(1, Math.ceil(RUNS / 2)) }),
};
const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !(name in BENCHES));
if (unknown.length) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; expected some of ${Object.keys(BENCHES).join(', ')}`);
  process.exit(2);
}
const chosen = asked.length ? asked : Object.keys(BENCHES);

ensureBuilt();
const latestFile = join(ROOT, 'bench/results/latest.json');
// Figures of an older bench layout are not mixed in.
const FORMAT = 2;
const stored = asked.length && existsSync(latestFile) ? JSON.parse(readFileSync(latestFile, 'utf8')) : {};
const previous = stored.format === FORMAT ? stored : {};
const results = {
  ...previous,
  format: FORMAT,
  note: process.env.BENCH_NOTE ?? null,
  machine: machine(),
  measured_at: new Date().toISOString(),
  runs: RUNS,
  measured: { ...(previous.measured ?? {}) },
};
console.log(`machine: ${results.machine.cores} cores, ${results.machine.memory_gb} GB, ${results.machine.cpu}, Node ${results.machine.node}`);
const peersFile = join(ROOT, 'bench/results/peers.json');
const storedPeers = existsSync(peersFile) ? JSON.parse(readFileSync(peersFile, 'utf8')) : null;
const peers = storedPeers?.sizes ? storedPeers : null;
mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
for (const name of chosen) {
  const started = performance.now();
  results[name] = await BENCHES[name]();
  results.measured[name] = new Date().toISOString();
  console.log(`${name}: done in ${fmt((performance.now() - started) / 1000, 1)} s`);
  // Written after each benchmark, so the figures of a long run survive an interruption.
  writeFileSync(latestFile, `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(ROOT, 'BENCHMARKS.md'), renderBenchmarks(results, peers));
}
console.log('wrote BENCHMARKS.md');
