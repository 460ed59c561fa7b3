import { appendFileSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RunError } from '../../../src/config/errors.js';
import { JsonlCheckpointer } from '../../../src/engine/checkpoint/jsonl-checkpointer.js';
import { MemoryCheckpointer } from '../../../src/engine/checkpoint/memory-checkpointer.js';
import { resume } from '../../../src/engine/resume.js';
import { build } from '../../helpers/run-agent.js';
import { comparable, invokeScripted, resumeScripted } from '../../helpers/run-resumable.js';
import { spansNamed } from '../../helpers/span-tree.js';
import { tempDir } from '../../helpers/temp-dir.js';

const lookup = { name: 'lookup_order', description: 'Look up.', read_only: true, parameters: { type: 'object' }, returns: { status: 'broken' } };
const remove = { name: 'delete_order', description: 'Delete.', permission: 'ask', parameters: { type: 'object' }, returns: { ok: true } };
const revision = build({ tools: [lookup, remove] });
const script = [
  { tool_calls: [{ name: 'lookup_order', args: { id: '1' } }] },
  { tool_calls: [{ name: 'delete_order', args: { id: '1' } }] },
  { text: 'Handled.' },
];

/** Runs until the approval gate and returns the checkpoint it paused at. */
async function pauseAtGate() {
  const checkpointer = new MemoryCheckpointer();
  const { turn } = await invokeScripted(revision, {}, { script, checkpointer });
  const saved = await checkpointer.list(turn.trace_id);
  return { turn, saved, checkpoint: saved[saved.length - 1] };
}

describe('checkpoints and resume: agent runs', () => {
  it('checkpoints after each tool round and where the run pauses', async () => {
    const { turn, saved, checkpoint } = await pauseAtGate();
    expect(turn.stop_reason).toBe('paused');
    expect(turn.pending_interaction).toMatchObject({ tool: 'delete_order', args: { id: '1' } });
    expect(saved.map((c) => [c.seq, c.kind, c.modelCalls, c.pending?.tool])).toEqual([
      [1, 'agent', 1, undefined],
      [2, 'agent', 2, 'delete_order'],
    ]);
    expect(checkpoint.id).toBe(`${turn.trace_id}:2`);
    expect(checkpoint.revisionHash).toBe(revision.hash);
  });

  it('resumes with approve as if the run had never stopped', async () => {
    const { turn: paused, checkpoint } = await pauseAtGate();
    const { turn, spans } = await resumeScripted(revision, checkpoint, 'approve', { script });
    expect(turn.stop_reason).toBe('end_turn');
    expect(turn.output).toBe('Handled.');
    expect(turn.messages.slice(0, paused.messages.length)).toEqual(paused.messages);
    expect(turn.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant']);
    expect(turn.messages[4]).toMatchObject({ role: 'tool', tool_name: 'delete_order', content: '{"ok":true}', is_error: false });
    expect(turn.usage.input_tokens).toBeGreaterThan(paused.usage.input_tokens);
    expect(spansNamed(spans, 'approval delete_order')[0].attributes['agentcheck.approval.decision']).toBe('approve');
    const root = spans.find((s) => s.parent_id === null);
    expect(root?.attributes['agentcheck.resume.checkpoint_id']).toBe(checkpoint.id);
  });

  it('resumes with deny: the model gets the refusal and goes on', async () => {
    const { checkpoint } = await pauseAtGate();
    const { turn, spans } = await resumeScripted(revision, checkpoint, 'deny', { script });
    expect(turn.stop_reason).toBe('end_turn');
    expect(turn.messages[4]).toMatchObject({
      role: 'tool',
      tool_name: 'delete_order',
      is_error: true,
      content: 'Denied: the user did not approve this call to delete_order.',
    });
    expect(spansNamed(spans, 'execute_tool delete_order')[0].attributes['agentcheck.tool.outcome']).toBe('denied');
  });

  it('gives the same result when resumed twice from the same checkpoint', async () => {
    const { checkpoint } = await pauseAtGate();
    const before = structuredClone(checkpoint);
    const first = await resumeScripted(revision, checkpoint, 'approve', { script });
    const second = await resumeScripted(revision, checkpoint, 'approve', { script });
    expect(comparable(second.turn)).toEqual(comparable(first.turn));
    expect(checkpoint).toEqual(before);
  });

  it('stores checkpoints in a JSONL file that another process could resume from', async () => {
    const file = join(tempDir(), 'runs', 'checkpoints.jsonl');
    const checkpointer = new JsonlCheckpointer(file);
    const { turn: paused } = await invokeScripted(revision, {}, { script, checkpointer });
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => line.seq)).toEqual([1, 2]);
    // It holds the messages as they are: readable by its owner only.
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const latest = await new JsonlCheckpointer(file).latest(paused.trace_id);
    expect(latest?.pending?.tool).toBe('delete_order');
    const { turn } = await resumeScripted(revision, latest!, 'approve', { script });
    expect(turn.output).toBe('Handled.');
  });

  it('refuses a JSONL line that is JSON but no checkpoint, naming the file and line', async () => {
    const file = join(tempDir(), 'checkpoints.jsonl');
    const checkpointer = new JsonlCheckpointer(file);
    const { turn } = await invokeScripted(revision, {}, { script, checkpointer });
    appendFileSync(file, '{"level":"info","msg":"not a checkpoint"}\n');
    await expect(new JsonlCheckpointer(file).list(turn.trace_id)).rejects.toMatchObject({
      code: 'CHECKPOINT_CORRUPT',
      message: `${file}:3: not a checkpoint (expected an object with string "id" and "traceId")`,
    });
    writeFileSync(file, '[1, 2]\n');
    await expect(new JsonlCheckpointer(file).latest(turn.trace_id)).rejects.toMatchObject({
      code: 'CHECKPOINT_CORRUPT',
      message: `${file}:1: not a checkpoint (expected an object with string "id" and "traceId")`,
    });
  });

  it('refuses a checkpoint of another build, a decision nothing waits for, and text for a tool gate', async () => {
    const { saved, checkpoint } = await pauseAtGate();
    await expect(resume(build({ tools: [lookup] }), checkpoint, 'approve', { script })).rejects.toMatchObject({ code: 'CHECKPOINT_MISMATCH' });
    await expect(resume(revision, saved[0], 'approve', { script })).rejects.toMatchObject({ code: 'NOTHING_PENDING' });
    await expect(resume(revision, checkpoint, 'sure, go ahead', { script })).rejects.toBeInstanceOf(RunError);
    await expect(resume(revision, checkpoint, 'sure, go ahead', { script })).rejects.toMatchObject({ code: 'INVALID_DECISION' });
    // What pausedRuns.latest() gives for a run that did not pause.
    await expect(resume(revision, undefined as never, 'approve', { script })).rejects.toMatchObject({
      code: 'NO_CHECKPOINT',
      message: expect.stringContaining("check turn.stop_reason === 'paused' first"),
    });
  });

  it('refuses a damaged checkpoint naming each field, before anything runs', async () => {
    const { checkpoint } = await pauseAtGate();
    const damaged = { ...checkpoint, seq: 'x', state: { ...checkpoint.state, messages: 'oops' } } as never;
    await expect(resume(revision, damaged, 'approve', { script })).rejects.toMatchObject({
      code: 'CHECKPOINT_INVALID',
      message: expect.stringContaining(
        'it is damaged: seq: expected a whole number >= 1, got string "x"; state.messages: expected the paused run\'s messages (a list)',
      ),
    });
    const noState = { ...checkpoint, state: undefined } as never;
    await expect(resume(revision, noState, 'approve', { script })).rejects.toMatchObject({ code: 'CHECKPOINT_INVALID' });
  });

  it('continues from a tool-round checkpoint without a decision', async () => {
    const { saved } = await pauseAtGate();
    const { turn } = await resumeScripted(revision, saved[0], undefined, { script, approvals: { default: 'approve' } });
    expect(turn.stop_reason).toBe('end_turn');
    expect(turn.output).toBe('Handled.');
  });
});
