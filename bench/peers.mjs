// Side-by-side with a peer: installs promptfoo into a temporary folder (not a project
// dependency), runs an equivalent 1,000-case suite on a local stub provider with three
// assertions per case, runs agentcheck's 1,000-scenario suite in the same session, and prints
// the ratio of wall times. Results go to bench/results/peers.json for BENCHMARKS.md.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSuite } from './generate-suite.mjs';
import { CLI, ensureBuilt, machine, median, ROOT, timeCommand } from './lib.mjs';

const CASES = 1000;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
// 0.121 is the version the budgets in BENCHMARKS.md were set against, and the last line that runs on Node 20.
const version = process.env.PROMPTFOO_VERSION ?? '0.121';

function writePromptfooProject(dir) {
  // The stub provider answers like a model making one tool call, as agentcheck's scripted model does.
  writeFileSync(join(dir, 'provider.cjs'), `module.exports = class StubProvider {
  id() { return 'stub'; }
  async callApi(prompt) {
    const id = /order (\\d+)/.exec(prompt)[1];
    return { output: JSON.stringify({ tool_calls: [{ name: 'create_refund', args: { order_id: id, reason: 'damaged' } }], text: 'Refund created.' }) };
  }
};
`);
  const tests = [];
  for (let i = 0; i < CASES; i++) {
    tests.push(`  - vars: {id: "${i}"}
    assert:
      - type: javascript
        value: JSON.parse(output).tool_calls[0].name === 'create_refund'
      - type: javascript
        value: JSON.parse(output).tool_calls[0].args.order_id === '${i}'
      - type: contains
        value: Refund created`);
  }
  writeFileSync(join(dir, 'promptfooconfig.yaml'), `prompts: ["Refund order {{id}}"]
providers: ["file://provider.cjs"]
tests:
${tests.join('\n')}
`);
}

ensureBuilt();
const dir = mkdtempSync(join(tmpdir(), 'agentcheck-peers-'));
console.log(`installing promptfoo@${version} into ${dir} ...`);
execFileSync('npm', ['init', '-y'], { cwd: dir, stdio: 'ignore' });
execFileSync('npm', ['install', `promptfoo@${version}`, '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: 'inherit' });
const promptfooVersion = JSON.parse(readFileSync(join(dir, 'node_modules/promptfoo/package.json'), 'utf8')).version;
writePromptfooProject(dir);
const env = { ...process.env, PROMPTFOO_DISABLE_TELEMETRY: '1', PROMPTFOO_DISABLE_UPDATE: '1', PROMPTFOO_DISABLE_SHARING: '1', PROMPTFOO_CACHE_ENABLED: 'false', CI: 'true' };
const bin = join(dir, 'node_modules/.bin/promptfoo');
const version_s = timeCommand(bin, ['--version'], { cwd: dir, env });
const pfWalls = [];
for (let i = 0; i < RUNS; i++) {
  const result = timeCommand(bin, ['eval', '-c', 'promptfooconfig.yaml', '--no-cache', '--no-write', '--no-table', '--no-progress-bar', '-j', '8'], { cwd: dir, env });
  if (result.status !== 0 && !/passed|Passed|Successes/.test(result.stdout + result.stderr)) throw new Error(`promptfoo eval failed (${result.status}): ${(result.stdout + result.stderr).slice(-800)}`);
  pfWalls.push(result.wall);
}
const suite = join(dir, 'agentcheck-suite');
mkdirSync(suite);
generateSuite(suite, CASES);
const acWalls = [];
for (let i = 0; i < RUNS; i++) {
  const result = timeCommand('node', [CLI, 'run', suite, '--reporter', 'json', '--out', join(dir, 'ac-out')]);
  if (result.status !== 0) throw new Error(`agentcheck run failed: ${result.stderr.slice(-400)}`);
  acWalls.push(result.wall);
}
const agentcheckVersion = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
const results = {
  machine: machine(),
  measured_at: new Date().toISOString(),
  runs: RUNS,
  promptfoo: { version: promptfooVersion, cases: CASES, wall_s: median(pfWalls), walls: pfWalls, version_wall_s: version_s.wall },
  agentcheck: { version: agentcheckVersion, scenarios: CASES, wall_s: median(acWalls), walls: acWalls },
  ratio: median(pfWalls) / median(acWalls),
  command: 'npm run bench:peers',
};
mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
writeFileSync(join(ROOT, 'bench/results/peers.json'), `${JSON.stringify(results, null, 2)}\n`);
console.log(`promptfoo ${promptfooVersion}: ${results.promptfoo.wall_s.toFixed(2)} s for ${CASES} cases (--version: ${version_s.wall.toFixed(2)} s)`);
console.log(`agentcheck ${agentcheckVersion}: ${results.agentcheck.wall_s.toFixed(2)} s for ${CASES} scenarios`);
console.log(`ratio: agentcheck is ${results.ratio.toFixed(1)}x faster (same machine, same session)`);
