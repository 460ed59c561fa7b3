// `npm run bench:peers`: side by side with promptfoo 0.121.20, installed into a temporary folder
// (not a project dependency). Both tools run the same cases at 1,000 and 5,000: promptfoo an
// equivalent suite on a local stub provider (a custom JS provider answering with one tool call)
// with three assertions per case (two javascript, one contains); agentcheck its generated suite
// (more work per case: engine loop, three tool calls, spans, checks). promptfoo's results are
// read back from its output file and verified (every case ran, every assertion passed). Wall
// time, CPU time (user + system) and peak RSS are reported for each, and their ratios.
// Results go to bench/results/peers.json for BENCHMARKS.md. BENCH_RUNS sets the runs per size.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSuite } from './generate-suite.mjs';
import { CLI, ensureBuilt, machine, median, ROOT, timeCommand } from './lib.mjs';

const SIZES = [1000, 5000];
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const VERSION = process.env.PROMPTFOO_VERSION ?? '0.121.20';

function writePromptfooProject(dir, cases) {
  // The stub provider answers like a model making one tool call, as agentcheck's scripted model does.
  writeFileSync(
    join(dir, 'provider.cjs'),
    `module.exports = class StubProvider {
  id() { return 'stub'; }
  async callApi(prompt) {
    const id = /order (\\d+)/.exec(prompt)[1];
    return { output: JSON.stringify({ tool_calls: [{ name: 'create_refund', args: { order_id: id, reason: 'damaged' } }], text: 'Refund created.' }) };
  }
};
`,
  );
  const tests = [];
  for (let i = 0; i < cases; i++) {
    tests.push(`  - vars: {id: "${i}"}
    assert:
      - type: javascript
        value: JSON.parse(output).tool_calls[0].name === 'create_refund'
      - type: javascript
        value: JSON.parse(output).tool_calls[0].args.order_id === '${i}'
      - type: contains
        value: Refund created`);
  }
  writeFileSync(
    join(dir, `promptfoo-${cases}.yaml`),
    `prompts: ["Refund order {{id}}"]
providers: ["file://provider.cjs"]
tests:
${tests.join('\n')}
`,
  );
}

/** Checks promptfoo's output file: `cases` results, each a success with its three assertions passed. */
function verifyPromptfoo(file, cases) {
  const output = JSON.parse(readFileSync(file, 'utf8'));
  const results = output.results?.results ?? [];
  const passed = results.filter(
    (r) => r.success && r.gradingResult?.componentResults?.length === 3 && r.gradingResult.componentResults.every((c) => c.pass),
  ).length;
  if (results.length !== cases || passed !== cases) throw new Error(`promptfoo ran ${results.length} of ${cases} cases, ${passed} passed all 3 assertions`);
  return passed;
}

function summary(runs) {
  return {
    wall_s: median(runs.map((r) => r.wall)),
    cpu_s: median(runs.map((r) => r.cpu)),
    rss_mb: Math.max(...runs.map((r) => r.rssMb)),
    walls: runs.map((r) => r.wall),
    cpus: runs.map((r) => r.cpu),
  };
}

ensureBuilt();
const dir = mkdtempSync(join(tmpdir(), 'agentcheck-peers-'));
try {
  console.log(`installing promptfoo@${VERSION} into ${dir} ...`);
  execFileSync('npm', ['init', '-y'], { cwd: dir, stdio: 'ignore' });
  try {
    execFileSync('npm', ['install', `promptfoo@${VERSION}`, '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: 'inherit' });
  } catch (error) {
    throw new Error(`could not install promptfoo@${VERSION} (is the npm registry reachable?): ${error.message}`);
  }
  const promptfooVersion = JSON.parse(readFileSync(join(dir, 'node_modules/promptfoo/package.json'), 'utf8')).version;
  const env = {
    ...process.env,
    PROMPTFOO_DISABLE_TELEMETRY: '1',
    PROMPTFOO_DISABLE_UPDATE: '1',
    PROMPTFOO_DISABLE_SHARING: '1',
    PROMPTFOO_CACHE_ENABLED: 'false',
    CI: 'true',
  };
  const bin = join(dir, 'node_modules/.bin/promptfoo');
  const versionRun = timeCommand(bin, ['--version'], { cwd: dir, env });
  const sizes = [];
  for (const cases of SIZES) {
    writePromptfooProject(dir, cases);
    const suite = generateSuite(join(dir, `agentcheck-${cases}`), cases);
    const pf = [];
    const ac = [];
    for (let i = 0; i < RUNS; i++) {
      const outFile = join(dir, `promptfoo-${cases}-results.json`);
      const result = timeCommand(
        bin,
        ['eval', '-c', `promptfoo-${cases}.yaml`, '--no-cache', '--no-write', '--no-table', '--no-progress-bar', '-j', '8', '-o', outFile],
        { cwd: dir, env },
      );
      verifyPromptfoo(outFile, cases);
      rmSync(outFile, { force: true });
      pf.push(result);
      const run = timeCommand('node', [CLI, 'run', suite, '--reporter', 'json', '--out', join(dir, 'ac-out')]);
      if (run.status !== 0) throw new Error(`agentcheck run failed: ${run.stderr.slice(-400)}`);
      const report = JSON.parse(readFileSync(join(dir, 'ac-out/report.json'), 'utf8'));
      if (report.summary.passed !== cases) throw new Error(`agentcheck: ${report.summary.passed} of ${cases} passed`);
      ac.push(run);
    }
    const [p, a] = [summary(pf), summary(ac)];
    sizes.push({ cases, promptfoo: p, agentcheck: a, ratio_wall: p.wall_s / a.wall_s, ratio_cpu: p.cpu_s / a.cpu_s, ratio_rss: p.rss_mb / a.rss_mb });
    console.log(
      `${cases} cases: promptfoo ${p.wall_s.toFixed(2)} s (${p.cpu_s.toFixed(2)} s CPU, ${p.rss_mb.toFixed(0)} MB), agentcheck ${a.wall_s.toFixed(2)} s (${a.cpu_s.toFixed(2)} s CPU, ${a.rss_mb.toFixed(0)} MB)`,
    );
  }
  const results = {
    machine: machine(),
    measured_at: new Date().toISOString(),
    runs: RUNS,
    promptfoo: {
      version: promptfooVersion,
      version_wall_s: versionRun.wall,
      command: 'promptfoo eval -c <config> --no-cache --no-write --no-table --no-progress-bar -j 8 -o <results.json>',
    },
    agentcheck: {
      version: JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version,
      command: 'node dist/bin/agentcheck.js run <suite> --reporter json --out <dir>',
    },
    sizes,
    command: 'npm run bench:peers',
  };
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench/results/peers.json'), `${JSON.stringify(results, null, 2)}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
