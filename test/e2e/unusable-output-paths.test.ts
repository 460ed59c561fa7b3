import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/run-main.js';
import { runMainFull } from '../helpers/run-main-full.js';
import { shared } from '../helpers/shared-fixture.js';
import { tempDir } from '../helpers/temp-dir.js';
import { AGENT_YAML, CLI, passingScenario, runCliWithFileLimit } from './cli.js';

// Output folders are created one level at a time: Node 20's recursive mkdir loops forever under
// /proc. The child is killed after a minute, so a regression fails here instead of hanging.
function runCli(args: string[], cwd: string) {
  return execa('node', [CLI, ...args], { reject: false, cwd, env: { CI: 'true' }, timeout: 60_000 });
}

const cases = [
  { name: 'a folder under /proc', path: '/proc/nope', linuxOnly: true, says: /cannot create the folder \/proc\/nope: ENOENT/ },
  { name: 'a file as parent', path: 'afile/sub', linuxOnly: false, says: /afile is a file, not a folder/ },
];

// A report for the merges below, made once in-process (runMainFull): which --out merge refuses
// does not depend on it.
const shardReport = shared(async (dir) => {
  const cwd = dir({ 'agent.yaml': AGENT_YAML, 'a.scenario.yaml': passingScenario('a') });
  const result = await runMainFull(['run', '.', '--out', 'shard', '--reporter', 'json'], cwd);
  expect(result.exitCode, result.all).toBe(0);
  return join(cwd, 'shard', 'report.json');
});

describe.each(cases)('an output path that cannot be created: $name', ({ path, linuxOnly, says }) => {
  const skip = linuxOnly && process.platform !== 'linux';
  // The /proc case on the built CLI, a child that can be killed, where a loop would hang the test
  // process; the other through the CLI's entry in-process (runMain), the same refusals, but where
  // the /proc case is skipped. An in-process call that returns did not hang.
  const inProcess = !linuxOnly && process.platform === 'linux';
  const exec = (args: string[], cwd: string) => (inProcess ? runMain(args, cwd) : runCli(args, cwd));
  // A child was not killed for its time (only a child has a timedOut to read).
  const notTimedOut = (result: object) => {
    if ('timedOut' in result) expect(result.timedOut).toBe(false);
  };

  it.skipIf(skip)(
    'run --out and merge --out exit 2 at once, naming the folder',
    async () => {
      const dir = tempDir({ 'agent.yaml': AGENT_YAML, 'a.scenario.yaml': passingScenario('a') });
      writeFileSync(join(dir, 'afile'), 'x');
      const run = await exec(['run', '.', '--out', path], dir);
      notTimedOut(run);
      expect(run.exitCode, run.stderr).toBe(2);
      expect(run.stderr).toMatch(/cannot write reports there/);
      expect(run.stderr).toMatch(says);
      const merge = await exec(['merge', await shardReport(), '--out', join(path, 'merged')], dir);
      notTimedOut(merge);
      expect(merge.exitCode, merge.stderr).toBe(2);
      expect(merge.stderr).toMatch(says);
    },
    120_000,
  );

  it.skipIf(skip)(
    'test-run --spans exits 2 before the run, naming the folder',
    async () => {
      const dir = tempDir({ 'agent.yaml': AGENT_YAML, 'script.yaml': '[{text: done}]\n' });
      writeFileSync(join(dir, 'afile'), 'x');
      const result = await exec(
        ['test-run', '--agent', 'agent.yaml', '--message', 'hi', '--script', 'script.yaml', '--spans', join(path, 's.jsonl'), '--json'],
        dir,
      );
      notTimedOut(result);
      expect(result.exitCode, result.stderr).toBe(2);
      expect(result.stderr).toMatch(/cannot write the spans there/);
      expect(result.stderr).toMatch(says);
      expect(result.stdout).toBe('');
    },
    120_000,
  );
});

describe('run: an output file that is a folder', () => {
  it('is invalid input (exit 2) before anything runs, naming it', async () => {
    // Through the CLI's entry in-process (runMain): run's refusal of an --out it cannot use is the
    // built CLI's above.
    for (const name of ['spans.jsonl', 'report.html']) {
      const dir = tempDir({ 'agent.yaml': AGENT_YAML, 'a.scenario.yaml': passingScenario('a'), [`out/${name}/x`]: '' });
      const run = await runMain(['run', '.', '--out', 'out', '--reporter', 'json,html'], dir);
      expect(run.exitCode, run.stderr).toBe(2);
      expect(run.stderr).toContain(`${join(dir, 'out', name)} is a folder, where the file ${name} goes`);
      expect(run.stdout).not.toMatch(/passed/);
    }
  });
});

describe('test-run --spans: found before the run, or failing after it', () => {
  const files = { 'agent.yaml': AGENT_YAML, 'script.yaml': '[{text: done}]\n' };
  const args = (spans: string) => ['test-run', '--agent', 'agent.yaml', '--message', 'hi', '--script', 'script.yaml', '--spans', spans, '--json'];
  // A refusal before the run, of the kind the built CLI refuses above (test-run --spans under a
  // path that cannot be made): the CLI's entry in-process.
  const refused = (spans: string, cwd: string) => runMain(args(spans), cwd);

  it('is invalid input (exit 2) when the path is a folder, before anything runs', async () => {
    const dir = tempDir({ ...files, 'adir/keep.txt': 'x' });
    const result = await refused('adir', dir);
    expect(result.exitCode, result.stderr).toBe(2);
    expect(result.stderr).toContain('adir: cannot write the spans there: it is a folder');
    expect(result.stdout).toBe('');
  }, 120_000);

  // sysfs refuses new files even to root, so a permission check alone would pass it.
  it.skipIf(process.platform !== 'linux')(
    'is invalid input (exit 2) when the folder refuses new files (/sys), before anything runs',
    async () => {
      const result = await refused('/sys/agentcheck-spans.jsonl', tempDir(files));
      expect(result.exitCode, result.stderr).toBe(2);
      expect(result.stderr).toContain('cannot write the spans there: EACCES');
      expect(result.stdout).toBe('');
    },
    120_000,
  );

  // /dev/full accepts the open and refuses the write (ENOSPC): a full disk after the run. In-process
  // (runMainFull): the built CLI's exit 1 for a write that fails after the run is the test below's.
  it.skipIf(process.platform !== 'linux')(
    'exits 1 with the result printed when the write fails after the run (full disk)',
    async () => {
      const result = await runMainFull(args('/dev/full'), tempDir(files));
      expect(result.exitCode, result.stderr).toBe(1);
      expect(result.stderr).toContain('could not write the spans to /dev/full: ENOSPC');
      expect(JSON.parse(result.stdout)).toMatchObject({ output: 'done', stop_reason: 'end_turn' });
    },
    120_000,
  );

  // A file size limit of 1 KB makes the spans' write fail part way (EFBIG), as a full disk would.
  it.skipIf(process.platform === 'win32')(
    'keeps the previous file byte for byte when the write fails part way, and leaves no partial file',
    async () => {
      const previous =
        '{"trace_id":"t","span_id":"s","parent_id":null,"name":"n","kind":"internal","status":"unset","start_ms":0,"end_ms":1,"duration_ms":1,"attributes":{},"ended":true}\n';
      const dir = tempDir({ ...files, 'out/spans.jsonl': previous });
      const args = ['test-run', '--agent', 'agent.yaml', '--message', 'hi', '--script', 'script.yaml', '--spans', 'out/spans.jsonl', '--json'];
      const result = await runCliWithFileLimit(1, args, dir);
      expect(result.exitCode, result.stderr).toBe(1);
      expect(result.stderr).toContain('could not write the spans to out/spans.jsonl: EFBIG');
      expect(result.stderr).toContain('; the previous file was kept');
      expect(JSON.parse(result.stdout)).toMatchObject({ output: 'done' });
      expect(readFileSync(join(dir, 'out/spans.jsonl'), 'utf8')).toBe(previous);
      expect(readdirSync(join(dir, 'out'))).toEqual(['spans.jsonl']);
    },
    120_000,
  );
});
