import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shared } from '../helpers/shared-fixture.js';
import { runMain } from '../helpers/run-main.js';
import { tempDir } from '../helpers/temp-dir.js';
import { runCli } from './cli.js';

// A checkpoint whose saved build or deltas were edited after test-run wrote it fits no build in
// the file: `agentcheck resume` refuses it (exit 2, `at checkpoint.revisionHash: ... was saved by
// another build`, docs/cli.md, resume) instead of running the edited build under the original
// build's hash. The build has a skill ref and the run a delta, so the saved build is not what
// revision.hash hashes (the build file, before both): an unedited checkpoint still resumes. Two of
// the delta's `set` entries write one place, so their order is part of its hash (docs/verdicts.md).

const GATED = `id: gated
agent:
  name: Gated
  llm: {provider: scripted, model: s}
  skills:
    - {ref: ../skills/notes}
  tools:
    - name: delete_order
      permission: ask
      parameters: {type: object, properties: {id: {type: string}}, required: [id]}
      returns: {deleted: true}
`;

const FILES = {
  'agents/gated.yaml': GATED,
  'skills/notes/SKILL.md': '---\nname: notes\ndescription: Notes about orders.\n---\nDelete only what you are asked to.\n',
  'delta.yaml': 'set:\n  agent: {max_turns: 4}\n  "agent.max_turns": 5\n',
  'script.yaml': '- tool_calls: [{name: delete_order, args: {id: "7"}}]\n- text: done\n',
};

const TEST_RUN = ['test-run', '--agent', 'agents/gated.yaml', '--delta', 'delta.yaml', '--message', 'x', '--script', 'script.yaml'];

/**
 * One run paused at delete_order (spans in out/); each test resumes its own copy of its folder.
 * The run that writes the checkpoint resume reads is this file's setup, not what it tests: the
 * CLI's entry in-process (runMain).
 */
const pausedRun = shared(async (dir) => {
  const root = dir(FILES);
  const result = await runMain([...TEST_RUN, '--terminal-tool', 'delete_order', '--spans', 'out/spans.jsonl', '--json'], root);
  expect(result.exitCode, result.all).toBe(1);
  const printed = JSON.parse(result.stdout);
  expect(printed).toMatchObject({ stop_reason: 'paused', approvals: [{ tool: 'delete_order', decision: 'pending' }] });
  return { root, runId: printed.run_id as string, revisionHash: printed.resolved.revision_hash as string };
});

/** A copy of the paused run's folder, its checkpoint changed by `edit`. */
async function pausedCopy(edit: (saved: Record<string, any>) => void = () => undefined) {
  const { root, runId, revisionHash } = await pausedRun();
  const dir = tempDir();
  cpSync(root, dir, { recursive: true });
  const file = join(dir, 'out', `${runId}.checkpoint.json`);
  const saved = JSON.parse(readFileSync(file, 'utf8'));
  edit(saved);
  writeFileSync(file, JSON.stringify(saved, null, 2));
  return { dir, runId, file, revisionHash };
}

const RESUME = (runId: string) => ['resume', runId, '--decision', 'approve', '--spans', 'out/spans.jsonl', '--json'];
const resume = (dir: string, runId: string) => runCli(RESUME(runId), dir);
/** The same resume through the CLI's entry in-process (runMain): for refusals of the kind the built CLI gives in the first test. */
const resumeInProcess = (dir: string, runId: string) => runMain(RESUME(runId), dir);

describe('agentcheck resume refuses a checkpoint whose saved build was edited', () => {
  it("refuses an edited tool's returns at checkpoint.revisionHash, naming the file; nothing runs and the file is kept", async () => {
    const { dir, runId, file, revisionHash } = await pausedCopy((saved) => {
      saved.revision.build.agent.tools[0].returns = { deleted: 'EDITED' };
    });
    const result = await resume(dir, runId);
    expect(result.exitCode, result.all).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`${file} at checkpoint.revisionHash: checkpoint ${runId}:1 was saved by another build (revision ${revisionHash}, delta `);
    expect(result.stderr).toMatch(
      /; revision\.build hashes to [0-9a-f]{16}\), the build saved in this file: the file was changed after test-run wrote it; start over with agentcheck test-run/,
    );
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(join(dir, 'out', 'spans.jsonl'), 'utf8')).not.toContain('EDITED');
  });

  it('refuses an edited delta at checkpoint.deltaHash', async () => {
    const { dir, runId, file } = await pausedCopy((saved) => {
      saved.revision.deltas[0].set.agent.max_turns = 6;
    });
    const result = await resumeInProcess(dir, runId);
    expect(result.exitCode, result.all).toBe(2);
    expect(result.stderr).toMatch(
      new RegExp(
        `at checkpoint\\.deltaHash: checkpoint ${runId}:1 was saved by another build \\(revision [0-9a-f]{16}, delta [0-9a-f]{16}; revision\\.deltas hash to [0-9a-f]{16}\\)`,
      ),
    );
    expect(result.stderr).toContain(file);
    expect(existsSync(file)).toBe(true);
  });

  it('refuses a saved delta whose set entries that write one place were reordered: it made another build', async () => {
    const { dir, runId, file } = await pausedCopy((saved) => {
      const { set } = saved.revision.deltas[0];
      saved.revision.deltas[0].set = Object.fromEntries(Object.entries(set).reverse());
    });
    const result = await resumeInProcess(dir, runId);
    expect(result.exitCode, result.all).toBe(2);
    expect(result.stderr).toMatch(
      new RegExp(
        `at checkpoint\\.deltaHash: checkpoint ${runId}:1 was saved by another build \\(revision [0-9a-f]{16}, delta [0-9a-f]{16}; revision\\.deltas hash to [0-9a-f]{16}\\)`,
      ),
    );
    expect(result.stderr).toContain(file);
    expect(existsSync(file)).toBe(true);
  });

  it('resumes the unedited checkpoint of a build with a delta and a skill ref, under its own hash', async () => {
    const { dir, runId, file, revisionHash } = await pausedCopy();
    const result = await resume(dir, runId);
    expect(result.exitCode, result.all).toBe(0);
    const printed = JSON.parse(result.stdout);
    expect(printed).toMatchObject({ verdict: 'pass', resolved: { revision_hash: revisionHash } });
    expect(existsSync(file)).toBe(false);
  });
});
