import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shared } from '../helpers/shared-fixture.js';
import { tempDir } from '../helpers/temp-dir.js';
import { runMain } from '../helpers/run-main.js';
import { runMainFull } from '../helpers/run-main-full.js';
import { runCli } from './cli.js';
import { pause } from './test-run-resume-fixture.js';

// What `agentcheck resume` refuses before its run claims the checkpoint: every refusal is exit 2
// with the checkpoint kept, and no folder but the one test-run kept is written into or moved.

/** Two gated writes: the first resume approves one and the run pauses again at the second. */
const TWO_WRITES = `- tool_calls: [{name: write_file, args: {path: CHANGELOG.md, content: "first"}}]
- tool_calls: [{name: write_file, args: {path: NOTES.md, content: "second"}}]
- text: Done.
`;

const resume = (dir: string, runId: string, spans: string, decision = 'approve') =>
  runCli(['resume', runId, '--decision', decision, '--spans', spans, '--json'], dir);

/**
 * The same resume through the CLI's entry in-process (runMain), for the refusals: each is exit 2
 * before the run claims the checkpoint. The built CLI refuses a live claim below (its pid is the
 * test's, which in-process would be the resume's own) and runs the resumes that answer.
 */
const refuse = (dir: string, runId: string, spans: string, decision = 'approve') =>
  runMain(['resume', runId, '--decision', decision, '--spans', spans, '--json'], dir);

/**
 * One paused run (TWO_WRITES, --spans out/spans.jsonl) for the tests that answer or refuse a
 * run paused at write_file: each resumes its own copy of the runs folder (copyPausedRunInto), as a
 * copied runs folder resumes in the copy and leaves the original alone (docs/cli.md, resume), so
 * no test sees what another changed. The original is never resumed. Paused in-process
 * (runMainFull): the pause only sets up the resumes this file is about, which the built CLI runs
 * where they answer or meet a live claim; test-run's pause is on the built CLI in
 * test-run-resume.test.ts and test-run-resume-across.test.ts.
 */
const pausedRun = shared(async (dir) => {
  const root = dir({ 'script.yaml': TWO_WRITES });
  return { root, runId: await pause(root, ['--spans', 'out/spans.jsonl'], runMainFull) };
});

/** Copies the paused run's runs folder into `dir` as out/; its checkpoint there is `file`. */
async function copyPausedRunInto(dir: string): Promise<{ dir: string; runId: string; file: string }> {
  const { root, runId } = await pausedRun();
  cpSync(join(root, 'out'), join(dir, 'out'), { recursive: true });
  return { dir, runId, file: join(dir, 'out', `${runId}.checkpoint.json`) };
}

function editCheckpoint(file: string, edit: (saved: Record<string, unknown>) => void): void {
  const saved = JSON.parse(readFileSync(file, 'utf8'));
  edit(saved);
  writeFileSync(file, JSON.stringify(saved));
}

describe('agentcheck resume works only in the workspace test-run kept beside the checkpoint', () => {
  /**
   * The shared paused run's runs folder copied and resumed in the copy: the copy's checkpoint
   * still names the original's workspace as its workspace_dir (an absolute path), so this one
   * resume shows both that a workspace_dir naming another folder is ignored and that a copy
   * resumes in the copy, leaving the original where it is.
   */
  const resumedCopy = shared(async (makeDir) => {
    const { root, runId } = await pausedRun();
    const original = join(root, 'out', `${runId}.workspace`);
    const listed = readdirSync(original).sort();
    const dir = makeDir();
    cpSync(join(root, 'out'), join(dir, 'copy'), { recursive: true });
    const saved = JSON.parse(readFileSync(join(dir, 'copy', `${runId}.checkpoint.json`), 'utf8'));
    const resumed = await resume(dir, runId, 'copy/spans.jsonl');
    return { root, dir, runId, original, listed, workspaceDir: saved.workspace_dir as string, again: JSON.parse(resumed.stdout) };
  });

  it('ignores a workspace_dir naming another folder: that folder is neither written into nor moved when the run pauses again', async () => {
    const { dir, runId, original, listed, workspaceDir, again } = await resumedCopy();
    expect(workspaceDir).toBe(original);
    // Paused again (the terminal tool write_file returned, so the verdict may pass).
    expect(again).toMatchObject({ stop_reason: 'paused' });
    expect(readdirSync(original).sort()).toEqual(listed);
    expect(readFileSync(join(dir, 'copy', `${again.run_id}.workspace`, 'CHANGELOG.md'), 'utf8')).toBe('first');
    expect(existsSync(join(dir, 'copy', `${runId}.workspace`))).toBe(false);
  });

  it('resumes a copied runs folder in the copy, leaving the original workspace where it is', async () => {
    // The original is the shared paused run's runs folder; the copy is in this test's folder.
    const { root, dir, runId, again } = await resumedCopy();
    const first = join(root, 'out');
    // Paused again (the terminal tool write_file returned, so the verdict may pass).
    expect(again).toMatchObject({ stop_reason: 'paused' });
    expect(readFileSync(join(dir, 'copy', `${again.run_id}.workspace`, 'CHANGELOG.md'), 'utf8')).toBe('first');
    // The original is untouched: still there, without the approved write.
    expect(existsSync(join(first, `${runId}.workspace`))).toBe(true);
    expect(existsSync(join(first, `${runId}.workspace`, 'CHANGELOG.md'))).toBe(false);
    expect(existsSync(join(first, `${runId}.checkpoint.json`))).toBe(true);
  });

  it('refuses a workspace beside the checkpoint that is a symbolic link (exit 2, checkpoint kept)', async () => {
    const { dir, runId } = await copyPausedRunInto(tempDir({ 'outside/keep.txt': 'precious\n' }));
    const workspace = join(dir, 'out', `${runId}.workspace`);
    rmSync(workspace, { recursive: true });
    symlinkSync(join(dir, 'outside'), workspace);
    const resumed = await refuse(dir, runId, 'out/spans.jsonl');
    expect(resumed.exitCode, resumed.all).toBe(2);
    expect(resumed.stdout).toBe('');
    expect(resumed.stderr).toContain(`expected the paused run's workspace folder beside the checkpoint, ${workspace}: it is a symbolic link`);
    expect(readdirSync(join(dir, 'outside'))).toEqual(['keep.txt']);
    expect(existsSync(join(dir, 'out', `${runId}.checkpoint.json`))).toBe(true);
  });
});

describe('agentcheck resume answers a run once: a claim left behind is refused, naming the way out', () => {
  it('refuses a run whose resume was killed (SIGKILL) after answering, rather than answering it again', async () => {
    const { dir, runId } = await copyPausedRunInto(tempDir());
    // What a killed resume leaves: the checkpoint renamed to its claim, under a pid no longer running.
    const claim = join(dir, 'out', `${runId}.checkpoint.json.2147483.answering`);
    renameSync(join(dir, 'out', `${runId}.checkpoint.json`), claim);
    const again = await refuse(dir, runId, 'out/spans.jsonl', 'deny');
    expect(again.exitCode, again.all).toBe(2);
    expect(again.stdout).toBe('');
    expect(again.stderr).toContain(
      `${claim}: cannot answer paused run ${runId}: the agentcheck resume (pid 2147483) that answered it was stopped before it finished`,
    );
    expect(again.stderr).toContain(`start over with agentcheck test-run (delete ${claim} to give up on this run)`);
    expect(existsSync(claim)).toBe(true);
  });

  it('names the way out of a claim whose pid is alive (pid reuse, another machine)', async () => {
    const { dir, runId } = await copyPausedRunInto(tempDir());
    const claim = join(dir, 'out', `${runId}.checkpoint.json.${process.pid}.answering`);
    renameSync(join(dir, 'out', `${runId}.checkpoint.json`), claim);
    const again = await resume(dir, runId, 'out/spans.jsonl');
    expect(again.exitCode, again.all).toBe(2);
    expect(again.stderr).toContain(`another agentcheck resume (pid ${process.pid}) is answering it`);
    // Most likely that resume is still at work: wait for it; the way out is named for a reused pid.
    expect(again.stderr).toContain("wait for that resume's result (if no such resume is running, the pid is another process's");
    expect(again.stderr).toContain(`delete ${claim} to give up on this run)`);
    // Deleting the claim gives the run up: it is then unknown, as an answered run is.
    rmSync(claim);
    const gone = await refuse(dir, runId, 'out/spans.jsonl');
    expect(gone.exitCode, gone.all).toBe(2);
    expect(gone.stderr).toContain(`no paused run ${runId} here`);
  });
});

/**
 * One flow run paused at its deterministic_step's gated write_file, for the flow tests: each
 * damages its own copy of the runs folder (pausedFlow).
 */
const pausedFlowRun = shared(async (makeDir) => {
  const dir = makeDir({
    'flow.yaml': `id: flow-bot
agent:
  name: Flow bot
  instructions: x
  llm: {provider: scripted, model: s}
  permissions: {mode: allow_reads}
  tools:
    - {name: write_file, description: write, builtin: write_file}
flow:
  entry_point: writer
  components:
    - {name: writer, type: deterministic_step, tool_name: write_file, inputs: [{literal: out.txt, as: path}, {literal: hello, as: content}]}
    - {name: review, type: human_input}
  routers:
    - {from: writer, to: review}
    - {from: review, to: end}
`,
    'script.yaml': '- text: fixed\n',
  });
  // In-process (runMainFull), as pausedRun: the flow tests are about what resume refuses.
  const paused = await runMainFull(['test-run', '--agent', 'flow.yaml', '--message', 'go', '--script', 'script.yaml', '--spans', 'out/s.jsonl', '--json'], dir);
  expect(paused.exitCode, paused.all).toBe(1);
  return { dir, runId: JSON.parse(paused.stdout).run_id as string };
});

/** A folder of its own holding a copy of the paused flow run's runs folder as out/; its checkpoint is `file`. */
async function pausedFlow(): Promise<{ dir: string; runId: string; file: string }> {
  const { dir: root, runId } = await pausedFlowRun();
  const dir = tempDir();
  cpSync(join(root, 'out'), join(dir, 'out'), { recursive: true });
  return { dir, runId, file: join(dir, 'out', `${runId}.checkpoint.json`) };
}

describe('agentcheck resume refuses a checkpoint that does not fit its saved build (exit 2, file kept)', () => {
  /**
   * One resume of a checkpoint with two unknown top-level keys and the revisionHash of another
   * build, read by the first two tests: the resume checks every field of the file and says every
   * problem in one pass, the unknown keys and the misfit to the saved build each on its own.
   */
  const strayKeysAndOtherBuild = shared(async (makeDir) => {
    const { dir, runId, file } = await copyPausedRunInto(makeDir());
    editCheckpoint(file, (saved) => {
      (saved.checkpoint as Record<string, unknown>).revisionHash = 'other';
      saved.extra_field = 1;
      saved.scripts = [];
    });
    return { runId, file, result: await refuse(dir, runId, 'out/spans.jsonl') };
  });

  it('a revisionHash of another build, and a checkpoint waiting for nothing', async () => {
    const { runId, file, result: mismatch } = await strayKeysAndOtherBuild();
    expect(mismatch.exitCode, mismatch.all).toBe(2);
    expect(mismatch.stdout).toBe('');
    expect(mismatch.stderr).toContain(`${file} at checkpoint.revisionHash: checkpoint ${runId}`);
    expect(mismatch.stderr).toContain('was saved by another build (revision other');
    expect(existsSync(file)).toBe(true);
    // Waiting for nothing: no pending, and messages that hold no call waiting for its result.
    const waiting = await copyPausedRunInto(tempDir());
    editCheckpoint(waiting.file, (saved) => {
      const checkpoint = saved.checkpoint as { pending: unknown; state: { messages: unknown[] } };
      checkpoint.pending = null;
      checkpoint.state.messages = checkpoint.state.messages.slice(0, 1);
    });
    const nothing = await refuse(waiting.dir, runId, 'out/spans.jsonl');
    expect(nothing.exitCode, nothing.all).toBe(2);
    expect(nothing.stderr).toContain(`${waiting.file} at checkpoint.pending: checkpoint`);
    expect(nothing.stderr).toContain('is not waiting for an answer, so --decision has no gated call to answer; start over with agentcheck test-run');
    expect(nothing.stderr).not.toContain('without a decision');
    expect(existsSync(waiting.file)).toBe(true);
  });

  it('a pending deleted while the messages hold the call waiting: named as nothing, not as waiting for nothing (black-box bug)', async () => {
    const deleted = await copyPausedRunInto(tempDir());
    editCheckpoint(deleted.file, (saved) => {
      delete (saved.checkpoint as Record<string, unknown>).pending;
    });
    const resumed = await refuse(deleted.dir, deleted.runId, 'out/spans.jsonl');
    expect(resumed.exitCode, resumed.all).toBe(2);
    expect(resumed.stderr.trim()).toBe(
      `agentcheck: invalid input: ${deleted.file} at checkpoint.pending: expected the call of tool "write_file" (call id "call_1", arguments {"path":"CHANGELOG.md","content":"first"}), the call the checkpoint's state.messages[1].tool_calls[0] holds waiting (the call a resume answers), got nothing`,
    );
    expect(resumed.stderr).not.toContain('is not waiting for an answer');
    expect(existsSync(deleted.file)).toBe(true);
  });

  it('an unknown top-level key, named with the keys a checkpoint has, as nested unknown keys are', async () => {
    const { file, result: resumed } = await strayKeysAndOtherBuild();
    expect(resumed.exitCode, resumed.all).toBe(2);
    expect(resumed.stdout).toBe('');
    expect(resumed.stderr).toContain(`${file} at extra_field: unknown key "extra_field"; expected one of: schema, run_id, revision, checkpoint,`);
    expect(resumed.stderr).toContain(`${file} at scripts: unknown key "scripts" (did you mean "script"?)`);
    expect(existsSync(file)).toBe(true);
  });

  it('an agent checkpoint for a build with a flow', async () => {
    const { dir, runId, file } = await pausedFlow();
    editCheckpoint(file, (saved) => {
      (saved.checkpoint as Record<string, unknown>).kind = 'agent';
    });
    const resumed = await refuse(dir, runId, 'out/s.jsonl');
    expect(resumed.exitCode, resumed.all).toBe(2);
    expect(resumed.stdout).toBe('');
    expect(resumed.stderr).toContain(`${file} at checkpoint.kind: checkpoint ${runId}:`);
    expect(resumed.stderr).toContain('is an agent checkpoint but the build has a flow, the build saved in this file');
    expect(existsSync(file)).toBe(true);
  });

  it('a flow checkpoint paused at a step whose state.current.pending was deleted and pending edited, which the resumed step would ignore (black-box bug)', async () => {
    const { dir, runId, file } = await pausedFlow();
    editCheckpoint(file, (saved) => {
      const checkpoint = saved.checkpoint as { pending: Record<string, unknown>; state: { current: Record<string, unknown> } };
      delete checkpoint.state.current.pending;
      checkpoint.pending.tool = 'zzz';
      checkpoint.pending.args = { anything: 1 };
    });
    const resumed = await refuse(dir, runId, 'out/s.jsonl');
    expect(resumed.exitCode, resumed.all).toBe(2);
    expect(resumed.stdout).toBe('');
    const source = `the call deterministic_step "writer" makes when resumed (from the build, the checkpoint's state.flow and state.executions)`;
    expect(resumed.stderr).toContain(
      `${file} at checkpoint.state.current.pending: expected the call of tool "write_file" (call id "flow_writer_1", arguments {"path":"out.txt","content":"hello"}), ${source}, got nothing`,
    );
    expect(resumed.stderr).toContain(`${file} at checkpoint.pending.tool: expected "write_file", the tool of ${source}, got "zzz"`);
    expect(resumed.stderr).toContain(
      `${file} at checkpoint.pending.args: expected {"path":"out.txt","content":"hello"}, the arguments of ${source}, got {"anything":1}`,
    );
    expect(existsSync(file)).toBe(true);
  });
});

describe('agentcheck test-run --workspace holding a file that cannot be copied', () => {
  it.skipIf(process.platform === 'win32')('is invalid input (exit 2) naming the file and what a workspace may hold', async () => {
    const dir = tempDir({ 'script.yaml': '- text: hi\n', 'ws/a.txt': 'a\n' });
    mkdirSync(join(dir, 'ws/sub'));
    execFileSync('mkfifo', [join(dir, 'ws/sub/pipe')]);
    const result = await runCli(
      [
        'test-run',
        '--agent',
        join(import.meta.dirname, '../../fixtures/agents/coding-agent.yaml'),
        '--message',
        'go',
        '--script',
        'script.yaml',
        '--workspace',
        'ws',
        '--json',
      ],
      dir,
    );
    expect(result.exitCode, result.all).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      `agentcheck: invalid input: --workspace: workspace could not be copied: ${join(dir, 'ws/sub/pipe')}: it is a named pipe (FIFO), which cannot be copied; expected a folder of regular files, folders and symbolic links`,
    );
  });
});
