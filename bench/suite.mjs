// Scripted suites through the real CLI (3 tool calls, 7 spans, 3 checks each): the 1,000-scenario
// suite against the same-work floor (bench/floor.mjs) in the same session, and 5,000 and 50,000
// scenarios for peak RSS and the marginal cost per scenario.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { generateSuite } from './generate-suite.mjs';
import { CLI, median, ROOT, timeCommand } from './lib.mjs';

function runCli(suite, out) {
  const result = timeCommand('node', [CLI, 'run', suite, '--reporter', 'json', '--out', out]);
  if (result.status !== 0) throw new Error(`agentcheck run ${suite} exited ${result.status}: ${result.stderr.slice(-500)}`);
  const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
  return { ...result, rows: report.scenarios.length, passed: report.summary.passed };
}

/** The parsed-YAML cache agentcheck run uses (src/config/parsed-yaml-cache.ts), as the CLI finds it. */
function yamlCacheFolder() {
  const chosen = process.env.AGENTCHECK_CACHE_DIR;
  return chosen ? join(resolve(chosen), 'yaml') : join(ROOT, 'node_modules', '.cache', 'agentcheck', 'yaml');
}

function summary(runs) {
  return {
    wall_s: median(runs.map((r) => r.wall)),
    cpu_s: median(runs.map((r) => r.cpu)),
    rss_mb: Math.max(...runs.map((r) => r.rssMb)),
    wall_all: runs.map((r) => r.wall),
    cpu_all: runs.map((r) => r.cpu),
  };
}

/**
 * The 1,000-scenario suite and the floor, alternated `runs` times; the ratio is of the medians
 * (wall and CPU) of one bench run.
 */
export function benchFloor({ size = 1000, runs = 5 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'agentcheck-bench-floor-'));
  try {
    const suite = generateSuite(join(dir, 'suite'), size);
    const ac = [];
    const floor = [];
    const unparsed = [];
    // The scenario files are parsed once and kept (docs/cli.md, Schema cache): a first run, as the
    // bench's own first, parses them; the figure without the kept values is taken too.
    runCli(suite, join(dir, 'out'));
    for (let i = 0; i < runs; i++) {
      ac.push(runCli(suite, join(dir, 'out')));
      const result = timeCommand('node', [join(ROOT, 'bench/floor.mjs'), suite, join(dir, 'floor-out')]);
      if (result.status !== 0) throw new Error(`floor exited ${result.status}: ${result.stderr.slice(-500)}`);
      floor.push(result);
      rmSync(yamlCacheFolder(), { recursive: true, force: true });
      unparsed.push(runCli(suite, join(dir, 'out')));
    }
    const a = summary(ac);
    const f = summary(floor);
    const u = summary(unparsed);
    return {
      size,
      runs,
      agentcheck: { ...a, rows: ac[0].rows, passed: ac[0].passed },
      agentcheck_unparsed: { ...u, passed: unparsed[0].passed },
      ratio_wall_unparsed: u.wall_s / f.wall_s,
      floor: f,
      ratio_wall: a.wall_s / f.wall_s,
      ratio_cpu: a.cpu_s / f.cpu_s,
      command: `node dist/bin/agentcheck.js run <${size} generated scenarios> --reporter json --out <dir>; node bench/floor.mjs <same suite> <dir>`,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Suites of 1,000, 5,000 and 50,000 scenarios: wall, CPU and peak RSS each, and the marginal cost
 * per scenario between sizes (start-up cancels out): (t5k - t1k) / 4,000 and (t50k - t5k) / 45,000.
 */
export function benchScale({ sizes = [1000, 5000, 50000], runs = 3 } = {}) {
  const results = [];
  for (const size of sizes) {
    const dir = mkdtempSync(join(tmpdir(), `agentcheck-bench-${size}-`));
    try {
      const suite = generateSuite(join(dir, 'suite'), size);
      const repetitions = size >= 50000 ? 1 : runs;
      const all = [];
      for (let i = 0; i < repetitions; i++) all.push(runCli(suite, join(dir, 'out')));
      results.push({
        size,
        runs: repetitions,
        ...summary(all),
        rows: all[0].rows,
        passed: all[0].passed,
        command: `node dist/bin/agentcheck.js run <${size} generated scenarios> --reporter json --out <dir>`,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const marginal = [];
  for (let i = 1; i < results.length; i++) {
    const [a, b] = [results[i - 1], results[i]];
    const scenarios = b.size - a.size;
    marginal.push({ from: a.size, to: b.size, wall_ms: ((b.wall_s - a.wall_s) / scenarios) * 1000, cpu_ms: ((b.cpu_s - a.cpu_s) / scenarios) * 1000 });
  }
  return { sizes: results, marginal };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify({ floor: benchFloor({ runs: 3 }), scale: benchScale({ runs: 1 }) }, null, 2));
}
