import { mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_YAML, passingScenario, runCli, runCliWithFileLimit } from '../../e2e/cli.js';
import { runMain } from '../../helpers/run-main.js';

let dir: string;
const lines = (path: string) => readFileSync(join(dir, path), 'utf8').split('\n').filter(Boolean);

/** Copies shard `from` to `to` with its spans.jsonl made by `make` instead of the real one. */
async function shardWith(from: string, to: string, make: (spans: string) => Promise<void>): Promise<void> {
  cpSync(join(dir, from), join(dir, to), { recursive: true });
  unlinkSync(join(dir, to, 'spans.jsonl'));
  await make(join(dir, to, 'spans.jsonl'));
}

describe("agentcheck merge with a shard's spans.jsonl that is no regular file (through the built CLI)", () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  beforeAll(async () => {
    // One passing suite in two shards for all tests, so the exit code says only what the spans did.
    dir = mkdtempSync(join(tmpdir(), 'agentcheck-merge-special-'));
    writeFileSync(join(dir, 'agent.yaml'), AGENT_YAML);
    writeFileSync(join(dir, 'a.scenario.yaml'), passingScenario('one'));
    writeFileSync(join(dir, 'b.scenario.yaml'), passingScenario('two'));
    // Shard 1 on the built CLI, shard 2 in-process (runMain). The merges of a named pipe and of a
    // full disk run on the built CLI, the others in-process: the merge reads the same files.
    const shards = [
      await runCli(['run', '.', '--shard', '1/2', '--out', 's1', '--reporter', 'json'], dir),
      await runMain(['run', '.', '--shard', '2/2', '--out', 's2', '--reporter', 'json'], dir),
    ];
    for (const shard of shards) expect(shard.exitCode, shard.all).toBe(0);
  });

  it('leaves out a named pipe beside a shard, naming it, and merges the other shard’s spans (exit 0)', async () => {
    await shardWith('s2', 'piped', async (spans) => void (await execa('mkfifo', [spans])));
    const result = await runCli(['merge', 's1/report.json', 'piped/report.json', '--out', 'm-pipe', '--reporter', 'json'], dir);
    expect(result.exitCode, result.all).toBe(0);
    expect(result.stderr).toContain(
      'agentcheck: left out piped/spans.jsonl, which is a named pipe (FIFO), not a regular file: the merged spans.jsonl lacks the spans of its rows',
    );
    expect(result.stderr).not.toContain('could not');
    expect(lines('m-pipe/spans.jsonl')).toEqual(lines('s1/spans.jsonl'));
    expect(result.stdout.trimEnd().split('\n').at(-1)).toBe('Reports: m-pipe/spans.jsonl, m-pipe/report.json');
  });

  it('leaves out a folder named spans.jsonl beside a shard, naming it, and merges the other shard’s spans (exit 0)', async () => {
    await shardWith('s2', 'foldered', async (spans) => mkdirSync(spans));
    const result = await runMain(['merge', 's1/report.json', 'foldered/report.json', '--out', 'm-folder', '--reporter', 'json'], dir);
    expect(result.exitCode, result.all).toBe(0);
    expect(result.stderr).toContain(
      'agentcheck: left out foldered/spans.jsonl, which is a folder, not a regular file: the merged spans.jsonl lacks the spans of its rows',
    );
    expect(result.stderr).not.toContain('EISDIR');
    expect(lines('m-folder/spans.jsonl')).toEqual(lines('s1/spans.jsonl'));
  });

  it('exits 1 when OUT/spans.jsonl cannot be written, saying which file and that none was written', async () => {
    mkdirSync(join(dir, 'm-unwritable/spans.jsonl'), { recursive: true });
    const result = await runMain(['merge', 's1/report.json', 's2/report.json', '--out', 'm-unwritable', '--reporter', 'json'], dir);
    expect(result.exitCode, result.all).toBe(1);
    expect(result.stderr).toMatch(/agentcheck: could not write m-unwritable\/spans\.jsonl: EISDIR[^\n]*; no spans\.jsonl was written\n/);
    expect(result.stderr).toContain('agentcheck: merge failed: the merged spans.jsonl was not written');
    // The report is still written, and the Reports line names only what was.
    expect(result.stdout.trimEnd().split('\n').at(-1)).toBe('Reports: m-unwritable/report.json');
  });

  it('says an earlier OUT/spans.jsonl left beside the new report is not this merge’s when no shard had spans', async () => {
    await shardWith('s1', 'piped1', async (spans) => void (await execa('mkfifo', [spans])));
    await shardWith('s2', 'foldered2', async (spans) => mkdirSync(spans));
    mkdirSync(join(dir, 'm-earlier'));
    writeFileSync(join(dir, 'm-earlier/spans.jsonl'), 'earlier\n');
    const result = await runMain(['merge', 'piped1/report.json', 'foldered2/report.json', '--out', 'm-earlier', '--reporter', 'json'], dir);
    expect(result.exitCode, result.all).toBe(0);
    expect(result.stderr).toContain(
      "agentcheck: no shard had spans to merge; m-earlier/spans.jsonl, left as it was, holds an earlier run's or merge's spans, not this merge's",
    );
    expect(readFileSync(join(dir, 'm-earlier/spans.jsonl'), 'utf8')).toBe('earlier\n');
  });

  it('exits 1 and keeps the previous OUT/spans.jsonl whole when the last write of the merged file is cut short by a full disk', async () => {
    // About 120 KB of spans against a 100 KB file limit (ulimit -f): the first batch fits, the
    // last one is written only in part, and nothing follows it to fail.
    await shardWith('s2', 'big', async (spans) => {
      const one = readFileSync(join(dir, 's2/spans.jsonl'), 'utf8');
      const wanted = 120_000 - readFileSync(join(dir, 's1/spans.jsonl')).length;
      writeFileSync(spans, one.repeat(Math.ceil(wanted / Buffer.byteLength(one))));
    });
    mkdirSync(join(dir, 'm-full'));
    const previous = readFileSync(join(dir, 's1/spans.jsonl'), 'utf8');
    writeFileSync(join(dir, 'm-full/spans.jsonl'), previous);
    const result = await runCliWithFileLimit(100, ['merge', 's1/report.json', 'big/report.json', '--out', 'm-full', '--reporter', 'json'], dir);
    expect(result.exitCode, `${result.stdout}\n${result.stderr}`).toBe(1);
    expect(result.stderr).toMatch(/could not write m-full\/spans\.jsonl: [^\n]*the previous m-full\/spans\.jsonl was kept/);
    expect(readFileSync(join(dir, 'm-full/spans.jsonl'), 'utf8')).toBe(previous);
  });
});
