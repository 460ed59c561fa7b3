import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
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
  // Its replay (exit 1, the table, report.json's stats) is checked in html-report-browser.test.ts,
  // whose page tests read the same run: one replay of the example, not two.

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
