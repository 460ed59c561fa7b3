import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/runner/report/report.js';
import { discoverScenarioFiles } from '../../src/runner/scenario/discover.js';
import { startSimulatedModel } from '../../scripts/simulated-model/server.mjs';
import { ROOT, runCli } from './cli.js';

const SUITE = join(ROOT, 'scenarios', 'toolsets');
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'agentcheck-toolsets-'));
  made.push(dir);
  return dir;
}

function cassetteFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(d, entry.name));
      else out.push(relative(dir, join(d, entry.name)));
    }
  };
  walk(dir);
  return out.sort();
}

describe('scenarios/toolsets (the example)', () => {
  it('replays offline from the committed cassettes and shows the 13-tool variant beating the 19-tool base', async () => {
    const out = temp();
    const result = await runCli(['run', '--config', 'scenarios/toolsets/agentcheck.config.yaml', '--reporter', 'table,json', '--out', out], ROOT, {
      OPENAI_API_KEY: '',
      COLUMNS: '200',
    });
    // Exit 1: the base variant fails some scenarios by design (README.md says so).
    expect(result.exitCode, result.all).toBe(1);
    expect(result.stdout).toContain('72 runs (12 scenarios x 2 variants x 3 repeats)');
    expect(result.stdout).toMatch(/p vs base/);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
    expect(report.scenarios.filter((row) => row.status === 'error').map((row) => row.error)).toEqual([]);
    const tools = (variant: string) => new Set(report.scenarios.filter((r) => r.variant === variant).map((r) => r.test_run!.resolved!.tools.length));
    expect([...tools('base')]).toEqual([19]);
    expect([...tools('lean')]).toEqual([13]);
    const { base, lean } = report.stats!.variants;
    expect(lean.pass_rate!).toBeGreaterThan(base.pass_rate!);
    expect(lean.tool_selection.wrong_tool_calls.per_run!).toBeLessThan(base.tool_selection.wrong_tool_calls.per_run!);
    expect(report.stats!.paired[0].mcnemar_p).toBeLessThan(0.05);
    expect(Object.keys(base.tool_selection.confusion).length).toBeGreaterThan(0);
  });

  it('stays out of a plain `agentcheck run scenarios/`, which has no suite config to replay with', () => {
    const files = discoverScenarioFiles(['scenarios'], ROOT).map((found) => found.file);
    expect(files.length).toBeGreaterThan(0);
    expect(files.filter((file) => file.startsWith(SUITE))).toEqual([]);
  });

  it('re-records the same cassettes from the simulated model', async (ctx) => {
    let sim;
    try {
      sim = await startSimulatedModel({ port: 8787 });
    } catch (error) {
      console.warn(`[toolsets re-record test] skipped: cannot listen on 127.0.0.1:8787 (${(error as Error).message})`);
      ctx.skip();
      return;
    }
    try {
      const dir = temp();
      cpSync(SUITE, dir, { recursive: true, filter: (source) => !source.startsWith(join(SUITE, 'cassettes')) });
      const result = await runCli(['run', '--cassettes', 'record', '--concurrency', '1', '--reporter', 'json', '--out', join(dir, 'out')], dir);
      expect(result.exitCode, result.all).toBe(1);
      const committed = cassetteFiles(join(SUITE, 'cassettes'));
      expect(cassetteFiles(join(dir, 'cassettes'))).toEqual(committed);
      for (const file of committed) {
        const interactions = (root: string) => JSON.parse(readFileSync(join(root, file), 'utf8')).interactions;
        expect(interactions(join(dir, 'cassettes')), file).toEqual(interactions(join(SUITE, 'cassettes')));
      }
    } finally {
      await sim.close();
    }
  });
});
