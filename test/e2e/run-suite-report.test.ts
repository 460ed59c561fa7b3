import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSuite, loadSuiteConfig, runSuite } from '../../src/index.js';
import { tempDir } from '../helpers/temp-dir.js';
import { AGENT_YAML, passingScenario, runCli } from './cli.js';

/** A report without what differs between two runs of the same suite: times, trace and span ids. */
function withoutTiming(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTiming);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === 'started_at' || key === 'trace_id' || key === 'evidence' || /duration/.test(key)) continue;
    out[key] = withoutTiming(item);
  }
  return out;
}

describe('runSuite (library) and agentcheck run (CLI)', () => {
  it('produce the same report: the CLI writes what runSuite returns', async () => {
    const dir = tempDir({
      'agent.yaml': AGENT_YAML,
      'agentcheck.config.yaml': 'variants:\n  lean: {set: {agent: {max_turns: 5}}}\nrepeat: 2\n',
      'suite.scenarios.yaml': `scenarios:
  - ${passingScenario('passes').replace(/\n/g, '\n    ')}
  - name: never finishes
    agent: agent.yaml
    inputs: {messages: [{role: user, content: go}]}
    model: {script: [{tool_calls: [{name: lookup, args: {id: "2"}}]}, {text: gave up}]}
    expect: {terminal_tool: finish}
`,
    });
    const out = join(dir, 'out');
    const cli = await runCli(['run', 'suite.scenarios.yaml', '--out', out, '--reporter', 'json', '--concurrency', '2'], dir);
    expect(cli.exitCode, cli.all).toBe(1);
    const written = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as unknown;

    const config = loadSuiteConfig(join(dir, 'agentcheck.config.yaml'), dir);
    const plan = loadSuite({ paths: ['suite.scenarios.yaml'], config }, dir);
    const report = await runSuite(plan, { concurrency: 2, selection: { paths: ['suite.scenarios.yaml'], config: config.file, cwd: dir } });

    expect(report.summary).toEqual({ total: 8, passed: 4, failed: 4, errored: 0, not_run: 0, skipped: 0 });
    expect(report.stats).toBeDefined();
    expect(withoutTiming(JSON.parse(JSON.stringify(report)))).toEqual(withoutTiming(written));
  });
});
