import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../../src/runner/report/report.js';
import { passAtK, passHatK } from '../../../src/runner/stats/pass-at-k.js';
import { runCli } from '../../e2e/cli.js';
import { runMain } from '../../helpers/run-main.js';
import { tempDir } from '../../helpers/temp-dir.js';

// A command tool that fails or not by a pattern, one letter per call of its key (P passes, W
// fails): the scripted model is deterministic, so this is what makes repeats of one scenario
// differ. Its counters live in PROBE_DIR, one folder per run of the suite. A shell script of
// builtins only: 24 calls start a shell each, which costs far less than a node each.
const PROBE = `f="$PROBE_DIR/$1"
n=0
if [ -f "$f" ]; then read -r n < "$f"; fi
echo $((n + 1)) > "$f"
p=$2
i=$((n % \${#p}))
while [ "$i" -gt 0 ]; do p=\${p#?}; i=$((i - 1)); done
case $p in P*) exit 0 ;; *) exit 1 ;; esac
`;

function agent(dir: string): string {
  const argv = ['/bin/sh', join(dir, 'probe.sh'), '{{ args.key }}', '{{ args.pattern }}'].map((arg) => JSON.stringify(arg)).join(', ');
  return `id: probe-bot
agent:
  name: Probe bot
  tools:
    - {name: probe, description: p, parameters: {type: object, properties: {key: {type: string}, pattern: {type: string}}}, command: {argv: [${argv}], allow_env: [PROBE_DIR]}}
`;
}

const scenario = (name: string, pattern: string) =>
  `  - {name: ${name}, model: {script: [{tool_calls: [{name: probe, args: {key: ${name}, pattern: ${pattern}}}]}, {text: done}]}}\n`;

const readReport = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Report;

describe('agentcheck merge: statistics bit for bit', () => {
  it("gives the unsharded run's stats for 3 shards merged, though its rows come in another order", async () => {
    // File order z, x, y; id order x, y, z. With 4 repeats z passes 4 times, x and y twice, so
    // pass^2 is the mean of 1, 1/6 and 1/6: (1 + 1/6) + 1/6 = 1.3333333333333335 in file order but
    // (1/6 + 1/6) + 1 = 1.3333333333333333 in id order. Summed in the rows' order, the unsharded
    // run said 0.4444444444444445 and the merge 0.4444444444444444.
    const dir = tempDir({
      'agentcheck.config.yaml': 'repeat: 4\nconcurrency: 1\n',
      's.scenarios.yaml': `defaults:
  agent: agent.yaml
  inputs: {messages: [{role: user, content: go}]}
  expect: {terminal_tool: probe, checks: [{no_tool_errors: {}}]}
scenarios:
${scenario('z', 'PPPP')}${scenario('x', 'PWPW')}${scenario('y', 'WPPW')}`,
      'probe.sh': PROBE,
    });
    writeFileSync(join(dir, 'agent.yaml'), agent(dir));
    // The unsharded run and the merge of the shards on the built CLI; the shards and the merge of
    // the unsharded report alone in-process (runMain), as what they make is all that is read.
    const run = async (args: string[], counters: string, inProcess = true) => {
      mkdirSync(join(dir, counters));
      const env = { PROBE_DIR: join(dir, counters) };
      const result = inProcess
        ? await runMain(['run', ...args, '--reporter', 'json'], dir, env)
        : await runCli(['run', ...args, '--reporter', 'json'], dir, env);
      expect([0, 1], result.all).toContain(result.exitCode);
    };
    await run(['--out', 'full'], 'c0', false);
    for (const shard of [1, 2, 3]) await run(['--shard', `${shard}/3`, '--out', `s${shard}`], `c${shard}`);
    const merge = await runCli(['merge', 's1/report.json', 's2/report.json', 's3/report.json', '--out', 'merged', '--reporter', 'json'], dir);
    expect(merge.exitCode, merge.all).toBe(1);
    // The unsharded report alone, merged: its own rows in the merge's order.
    const again = await runMain(['merge', 'full/report.json', '--out', 'again', '--reporter', 'json'], dir);
    expect(again.exitCode, again.all).toBe(1);

    const full = readReport(join(dir, 'full/report.json'));
    const merged = readReport(join(dir, 'merged/report.json'));
    expect(full.scenarios.map((row) => `${row.name}${row.status === 'pass' ? 'P' : 'W'}`).join(' ')).toBe('zP zP zP zP xP xW xP xW yW yP yP yW');
    expect(merged.scenarios.map((row) => row.name).join('')).toBe('xxxxyyyyzzzz');
    // Summed in id order: x (n 4, c 2), y (4, 2), z (4, 4).
    const inIdOrder = (f: typeof passAtK) => (f(4, 2, 2) + f(4, 2, 2) + f(4, 4, 2)) / 3;
    expect(full.stats!.variants.base.pass_k[1]).toEqual({ k: 2, pass_at_k: inIdOrder(passAtK), pass_hat_k: inIdOrder(passHatK), scenarios: 3 });
    expect(inIdOrder(passHatK)).not.toBe((passHatK(4, 4, 2) + passHatK(4, 2, 2) + passHatK(4, 2, 2)) / 3);
    // Every statistic equal, to the last bit and in key order; durations are each run's own wall times.
    const withoutDurations = (report: Report) => JSON.stringify(report.stats, (key, value: unknown) => (key === 'duration_ms' ? undefined : value));
    expect(withoutDurations(merged)).toBe(withoutDurations(full));
    expect(merged.stats).toEqual({ ...full.stats, variants: { base: { ...full.stats!.variants.base, duration_ms: merged.stats!.variants.base.duration_ms } } });
    // With the same rows, durations too.
    expect(JSON.stringify(readReport(join(dir, 'again/report.json')).stats)).toBe(JSON.stringify(full.stats));
  });
});
