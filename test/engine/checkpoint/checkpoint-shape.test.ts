import { describe, expect, it } from 'vitest';
import { checkpointShapeProblems } from '../../../src/engine/checkpoint/checkpoint-shape.js';
import type { Checkpoint } from '../../../src/engine/checkpoint/checkpointer.js';
import { MemoryCheckpointer } from '../../../src/engine/checkpoint/memory-checkpointer.js';
import { resume } from '../../../src/engine/resume.js';
import { revisionFromValue } from '../../../src/engine/revision/load-build.js';
import { FolderWorkspace } from '../../../src/engine/workspace/folder-workspace.js';
import { build } from '../../helpers/run-agent.js';
import { invokeScripted } from '../../helpers/run-resumable.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { configFixerBuild } from '../flow/config-fixer.js';
import { askerRevision as asker } from './asker-flow.js';

const remove = { name: 'delete_order', description: 'Delete.', permission: 'ask', parameters: { type: 'object' }, returns: { ok: true } };
const agentRevision = build({ tools: [remove] });
const agentScript = [{ tool_calls: [{ name: 'delete_order', args: { id: '1' } }] }, { text: 'Handled.' }];

/** A plain agent run paused at its gate, as the engine saved it. */
async function agentPause(): Promise<Checkpoint> {
  const checkpointer = new MemoryCheckpointer();
  const { turn } = await invokeScripted(agentRevision, {}, { script: agentScript, checkpointer });
  return (await checkpointer.latest(turn.trace_id)) as Checkpoint;
}

/** A flow paused inside its agent component, at a gated edit: `current` holds the component's loop and pending call. */
async function flowPause() {
  const gated = configFixerBuild({ tools: [{ name: 'edit_file', description: 'Edit a file.', builtin: 'edit_file', permission: 'ask' }] });
  const revision = revisionFromValue(gated);
  const checkpointer = new MemoryCheckpointer();
  const script = [{ tool_calls: [{ name: 'edit_file', args: { path: 'config.json', old: '"80"', new: '80' } }] }, { text: 'done' }];
  const workspace = FolderWorkspace.at(tempDir({ 'config.json': '{"port": "80"}' }));
  const { turn } = await invokeScripted(
    revision,
    { messages: [{ role: 'user', content: 'Fix it.' }], context: { config_path: 'config.json' } },
    { script, checkpointer, workspace },
  );
  const checkpoint = (await checkpointer.latest(turn.trace_id)) as Checkpoint & { kind: 'flow' };
  return { revision, checkpoint };
}

/** A copy of `checkpoint` (as plain JSON, as a file holds it) changed by `edit`. */
function edited(checkpoint: Checkpoint, edit: (copy: Record<string, any>) => void): unknown {
  const copy = JSON.parse(JSON.stringify(checkpoint));
  edit(copy);
  return copy;
}

describe('checkpointShapeProblems: what a checkpoint must hold to be resumed', () => {
  it('finds nothing in the checkpoints the engine saves, agent and flow, also read back from JSON', async () => {
    const agent = await agentPause();
    expect(checkpointShapeProblems(agent, agentRevision.build)).toEqual([]);
    expect(checkpointShapeProblems(JSON.parse(JSON.stringify(agent)), agentRevision.build)).toEqual([]);
    const { revision, checkpoint } = await flowPause();
    expect(checkpoint.state.current?.loop).toBeDefined();
    expect(checkpointShapeProblems(checkpoint, revision.build)).toEqual([]);
    expect(checkpointShapeProblems(JSON.parse(JSON.stringify(checkpoint)), revision.build)).toEqual([]);
  });

  it('refuses a key an agent checkpoint does not have, at every level, naming it with the keys there are', async () => {
    const checkpoint = await agentPause();
    const damaged = edited(checkpoint, (copy) => {
      copy.foo = 1;
      copy.pending.toool = 'x';
      copy.state.foo = 1;
      copy.state.usage.foo = 1;
    });
    expect(checkpointShapeProblems(damaged, agentRevision.build)).toEqual([
      { path: 'foo', expected: 'unknown key "foo"; expected one of: id, traceId, seq, revisionHash, deltaHash, modelCalls, pending, kind, state' },
      { path: 'pending.toool', expected: 'unknown key "toool" (did you mean "tool"?); expected one of: id, tool, tool_call_id, args' },
      { path: 'state.usage.foo', expected: 'unknown key "foo"; expected one of: input_tokens, output_tokens, cached_input_tokens, reasoning_tokens' },
      { path: 'state.foo', expected: 'unknown key "foo"; expected one of: messages, turns, usage' },
    ]);
  });

  it('refuses counts, ids, the pending call and messages that a resumed run would misread', async () => {
    const checkpoint = await agentPause();
    const damaged = edited(checkpoint, (copy) => {
      copy.modelCalls = -5;
      copy.revisionHash = 5;
      copy.deltaHash = 1;
      copy.pending.tool = '';
      copy.state.turns = 'abc';
      copy.state.usage.output_tokens = 1.5;
      copy.state.messages[1].role = 'robot';
      copy.state.messages.push({ role: 'tool', tool_call_id: 'nope', tool_name: 'x', content: 'r', is_error: false });
    });
    expect(checkpointShapeProblems(damaged, agentRevision.build)).toEqual([
      { path: 'revisionHash', expected: 'expected a string, got number 5' },
      { path: 'deltaHash', expected: 'expected a string or null, got number 1' },
      { path: 'modelCalls', expected: 'expected a whole number >= 0, got number -5' },
      { path: 'pending.tool', expected: 'expected a non-empty string, got string ""' },
      { path: 'state.messages[1].role', expected: 'expected one of "user" | "assistant" | "tool", got string "robot"' },
      {
        path: 'state.messages[2].tool_call_id',
        expected: 'expected the id of an earlier assistant tool call it answers (an earlier assistant tool call, and there is none), got string "nope"',
      },
      { path: 'state.usage.output_tokens', expected: 'expected a whole number >= 0, got number 1.5' },
      { path: 'state.turns', expected: 'expected a whole number >= 0, got string "abc"' },
    ]);
    // A pending of null where the messages hold no call waiting waits for nothing: checkpointMisfit
    // says so when it is answered (where they hold one, it is refused as nothing: below).
    const settled = edited(checkpoint, (copy) => {
      copy.pending = null;
      copy.state.messages = copy.state.messages.slice(0, 1);
    });
    expect(checkpointShapeProblems(settled, agentRevision.build)).toEqual([]);
  });

  it("refuses a flow state's unknown keys and damaged parts: its channels, the component in progress and its loop", async () => {
    const { revision, checkpoint } = await flowPause();
    const damaged = edited(checkpoint, (copy) => {
      copy.state.foo = 1;
      copy.state.executions = -1;
      copy.state.flow.foo = 1;
      copy.state.flow.conversation_history.fixer = [{ role: 'user', contnt: 'x' }];
      copy.state.current.foo = 1;
      copy.state.current.component = 'nobody';
      copy.state.current.pending.foo = 1;
      copy.state.current.loop.turns = -1;
    });
    expect(checkpointShapeProblems(damaged, revision.build)).toEqual([
      { path: 'state.foo', expected: expect.stringContaining('expected one of: flow, messages, usage, modelCalls, executions, next, current, output') },
      { path: 'state.executions', expected: 'expected a whole number >= 0, got number -1' },
      { path: 'state.flow.foo', expected: 'unknown key "foo"; expected one of: status, conversation_history, ui_chat_log, context' },
      { path: 'state.flow.conversation_history.fixer[0].contnt', expected: 'unknown key "contnt" (did you mean "content"?); expected one of: role, content' },
      { path: 'state.current.foo', expected: expect.stringContaining('unknown key "foo"') },
      { path: 'state.current.component', expected: 'expected the name of a component of the flow (read_config, fixer, review), got string "nobody"' },
      { path: 'state.current.pending.foo', expected: expect.stringContaining('unknown key "foo"') },
      { path: 'state.current.loop.turns', expected: 'expected a whole number >= 0, got number -1' },
    ]);
  });

  it("quotes a flow state's unknown key holding a dot, a quote or white space, or empty, in brackets, at every level (black-box bug)", async () => {
    const { revision, checkpoint } = await flowPause();
    const damaged = edited(checkpoint, (copy) => {
      copy["q'k"] = 1;
      copy.state.flow['x.y'] = 1;
      copy.state.current['a b'] = 1;
      copy.state.current.pending['x.y'] = 1;
      copy.state.current.loop.usage[''] = 1;
    });
    const paths = checkpointShapeProblems(damaged, revision.build).map((problem) => problem.path);
    expect(paths).toEqual([`["q'k"]`, 'state.flow["x.y"]', 'state.current["a b"]', 'state.current.pending["x.y"]', 'state.current.loop.usage[""]']);
  });

  it("names the value found in a flow state's damaged parts", async () => {
    const { revision, checkpoint } = await flowPause();
    const damaged = edited(checkpoint, (copy) => {
      copy.state.flow.context = 'x';
      copy.state.flow.conversation_history.fixer = 5;
      copy.state.flow.ui_chat_log = {};
      copy.state.next = 7;
      copy.state.current.loop.messages = null;
    });
    expect(checkpointShapeProblems(damaged, revision.build)).toEqual([
      { path: 'state.flow.context', expected: 'expected the flow context (an object), got string "x"' },
      { path: 'state.flow.conversation_history.fixer', expected: "expected the component's conversation (a list of messages), got number 5" },
      { path: 'state.flow.ui_chat_log', expected: 'expected a list, got an object' },
      { path: 'state.next', expected: 'expected null or the name of a component of the flow (read_config, fixer, review), got number 7' },
      { path: 'state.current.loop.messages', expected: "expected the component's messages (a list), got null" },
    ]);
    expect(checkpointShapeProblems(edited(checkpoint, (copy) => (copy.state.flow = []))).map((problem) => problem.expected)).toContain(
      'expected the flow state {status, context, conversation_history, ui_chat_log}, got an array',
    );
    expect(checkpointShapeProblems(edited(checkpoint, (copy) => (copy.state.messages = 'x')))).toContainEqual({
      path: 'state.messages',
      expected: 'expected the paused run\'s messages (a list), got string "x"',
    });
  });

  it("leaves a kind the build does not run to the misfit check, rather than calling the other kind's fields unknown", async () => {
    const { revision, checkpoint } = await flowPause();
    expect(
      checkpointShapeProblems(
        edited(checkpoint, (copy) => (copy.kind = 'agent')),
        revision.build,
      ),
    ).toEqual([]);
    await expect(resume(revision, edited(checkpoint, (copy) => (copy.kind = 'agent')) as Checkpoint, 'approve')).rejects.toMatchObject({
      code: 'CHECKPOINT_MISMATCH',
    });
  });

  it("refuses another build's checkpoint as CHECKPOINT_MISMATCH, not as damaged for naming a component only its own flow has", async () => {
    const first = asker('asker', 'ask');
    const checkpointer = new MemoryCheckpointer();
    const { turn } = await invokeScripted(first, {}, { script: [{ text: 'unused' }], checkpointer });
    expect(turn.stop_reason).toBe('paused');
    const checkpoint = (await checkpointer.latest(turn.trace_id)) as Checkpoint;
    const second = asker('asker-copy', 'confirm');
    await expect(resume(second, checkpoint, 'approve', { script: [{ text: 'unused' }] })).rejects.toMatchObject({
      code: 'CHECKPOINT_MISMATCH',
      message: expect.stringContaining(`was saved by another build (revision ${first.hash}, delta null)`),
    });
    // Its own build still holds its component names to the flow: an edited one is damage.
    const renamed = edited(checkpoint, (copy) => (copy.state.next = 'confirm')) as Checkpoint;
    await expect(resume(first, renamed, 'approve')).rejects.toMatchObject({
      code: 'CHECKPOINT_INVALID',
      message: expect.stringContaining('state.next: expected null or the name of a component of the flow (ask)'),
    });
  });

  it('refuses a pending call edited away from the call its messages hold waiting, which a resume would answer instead (black-box nit)', async () => {
    const checkpoint = await agentPause();
    const source = "the call the checkpoint's state.messages[1].tool_calls[0] holds waiting (the call a resume answers)";
    const damaged = edited(checkpoint, (copy) => {
      copy.pending.tool = 'drop_table';
      copy.pending.tool_call_id = 'call_9';
      copy.pending.args = { id: '2' };
    });
    expect(checkpointShapeProblems(damaged, agentRevision.build)).toEqual([
      { path: 'pending.tool', expected: `expected "delete_order", the tool of ${source}, got "drop_table"` },
      { path: 'pending.tool_call_id', expected: `expected "call_1", the call id of ${source}, got "call_9"` },
      { path: 'pending.args', expected: `expected {"id":"1"}, the arguments of ${source}, got {"id":"2"}` },
    ]);
    // The same arguments with their keys in another order are the same call.
    const reordered = edited(checkpoint, (copy) => {
      copy.state.messages[1].tool_calls[0].input = { id: '1', why: 'dup' };
      copy.pending.args = { why: 'dup', id: '1' };
    });
    expect(checkpointShapeProblems(reordered, agentRevision.build)).toEqual([]);
    // Messages whose waiting call was answered leave nothing to answer.
    const answered = edited(checkpoint, (copy) =>
      copy.state.messages.push({ role: 'tool', tool_call_id: 'call_1', tool_name: 'delete_order', content: 'ok', is_error: false }),
    );
    expect(checkpointShapeProblems(answered, agentRevision.build)).toEqual([
      {
        path: 'pending',
        expected: `expected no pending call: the last assistant message of the checkpoint's state.messages has no call waiting for an answer, got a call of tool "delete_order"`,
      },
    ]);
    // The engine's resume refuses it before anything runs, as agentcheck resume does its file.
    await expect(resume(agentRevision, damaged as Checkpoint, 'approve', { script: agentScript })).rejects.toMatchObject({
      code: 'CHECKPOINT_INVALID',
      message: expect.stringContaining(`pending.tool: expected "delete_order", the tool of ${source}, got "drop_table"`),
    });
  });

  it("holds each copy of a flow's pending call to the call its agent component's messages hold waiting: only an edited one is named (black-box nit)", async () => {
    const { revision, checkpoint } = await flowPause();
    const args = { path: 'config.json', old: '"80"', new: '80' };
    const held = (word: string, value: unknown) =>
      new RegExp(
        `^expected ${JSON.stringify(value).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, the ${word} of the call the checkpoint's state\\.current\\.loop\\.messages\\[\\d+\\]\\.tool_calls\\[0\\] holds waiting \\(the call a resume answers\\), got `,
      );
    const top = edited(checkpoint, (copy) => (copy.pending.args = { ...args, new: 'rm -rf' }));
    expect(checkpointShapeProblems(top, revision.build)).toEqual([{ path: 'pending.args', expected: expect.stringMatching(held('arguments', args)) }]);
    // The component's copy edited alone: the checkpoint's own copy, which still holds the call, is not blamed.
    const inner = edited(checkpoint, (copy) => (copy.state.current.pending.tool = 'write_file'));
    expect(checkpointShapeProblems(inner, revision.build)).toEqual([
      { path: 'state.current.pending.tool', expected: expect.stringMatching(held('tool', 'edit_file')) },
    ]);
    const both = edited(checkpoint, (copy) => {
      copy.pending.tool = 'write_file';
      copy.state.current.pending.tool = 'write_file';
    });
    expect(checkpointShapeProblems(both, revision.build)).toEqual([
      { path: 'state.current.pending.tool', expected: expect.stringMatching(held('tool', 'edit_file')) },
      { path: 'pending.tool', expected: expect.stringMatching(held('tool', 'edit_file')) },
    ]);
    // Arguments deleted are said as nothing, as every missing value is.
    const deleted = edited(checkpoint, (copy) => delete copy.pending.args);
    expect(checkpointShapeProblems(deleted, revision.build)).toEqual([
      { path: 'pending.args', expected: expect.stringMatching(new RegExp(`${held('arguments', args).source}nothing$`)) },
    ]);
  });

  it("holds each copy of a human_input's pending call to the question it asks when resumed: only an edited one is named", async () => {
    const revision = asker('asker', 'ask');
    const checkpointer = new MemoryCheckpointer();
    const { turn } = await invokeScripted(revision, {}, { script: [{ text: 'unused' }], checkpointer });
    const checkpoint = (await checkpointer.latest(turn.trace_id)) as Checkpoint;
    expect(checkpointShapeProblems(checkpoint, revision.build)).toEqual([]);
    const source = `the call human_input "ask" makes when resumed (from the build, the checkpoint's state.flow and state.executions)`;
    const inner = edited(checkpoint, (copy) => (copy.state.current.pending.tool = 'x'));
    expect(checkpointShapeProblems(inner, revision.build)).toEqual([
      { path: 'state.current.pending.tool', expected: `expected "ask", the tool of ${source}, got "x"` },
    ]);
    const deleted = edited(checkpoint, (copy) => delete copy.pending.args);
    expect(checkpointShapeProblems(deleted, revision.build)).toEqual([
      { path: 'pending.args', expected: `expected {}, the arguments of ${source}, got nothing` },
    ]);
  });

  it('refuses a deleted pending while the messages or state.current.pending hold the call, as nothing, not as waiting for nothing (black-box bug)', async () => {
    const agent = await agentPause();
    const agentSource = `the call the checkpoint's state.messages[1].tool_calls[0] holds waiting (the call a resume answers)`;
    const agentCall = `expected the call of tool "delete_order" (call id "${agent.pending?.tool_call_id}", arguments {"id":"1"}), ${agentSource}, got nothing`;
    for (const edit of [(copy: Record<string, any>) => delete copy.pending, (copy: Record<string, any>) => (copy.pending = null)]) {
      const deleted = edited(agent, edit);
      expect(checkpointShapeProblems(deleted, agentRevision.build)).toEqual([{ path: 'pending', expected: agentCall }]);
      // Not NOTHING_PENDING for a decision, nor a run that makes the call unasked without one.
      for (const decision of ['approve', undefined])
        await expect(resume(agentRevision, deleted as Checkpoint, decision, { script: agentScript })).rejects.toMatchObject({
          code: 'CHECKPOINT_INVALID',
          message: expect.stringContaining(`it is damaged: pending: ${agentCall}`),
        });
    }

    const { revision, checkpoint } = await flowPause();
    const inLoop =
      /^expected the call of tool "edit_file" \(call id "[^"]+", arguments \{.*\}\), the call the checkpoint's state\.current\.loop\.messages\[\d+\]\.tool_calls\[0\] holds waiting \(the call a resume answers\), got nothing$/;
    expect(
      checkpointShapeProblems(
        edited(checkpoint, (copy) => delete copy.pending),
        revision.build,
      ),
    ).toEqual([{ path: 'pending', expected: expect.stringMatching(inLoop) }]);
    const both = edited(checkpoint, (copy) => {
      delete copy.pending;
      delete copy.state.current.pending;
    });
    expect(checkpointShapeProblems(both, revision.build)).toEqual([
      { path: 'state.current.pending', expected: expect.stringMatching(inLoop) },
      { path: 'pending', expected: expect.stringMatching(inLoop) },
    ]);

    const ask = asker('asker', 'ask');
    const checkpointer = new MemoryCheckpointer();
    const { turn } = await invokeScripted(ask, {}, { script: [{ text: 'unused' }], checkpointer });
    const question = (await checkpointer.latest(turn.trace_id)) as Checkpoint;
    const askSource = `the call human_input "ask" makes when resumed (from the build, the checkpoint's state.flow and state.executions)`;
    const asked = `expected the call of tool "ask" (call id "${question.pending?.tool_call_id}", arguments {}), ${askSource}, got nothing`;
    const unasked = edited(question, (copy) => delete copy.pending);
    expect(checkpointShapeProblems(unasked, ask.build)).toEqual([{ path: 'pending', expected: asked }]);
    await expect(resume(ask, unasked as Checkpoint, 'approve')).rejects.toMatchObject({ code: 'CHECKPOINT_INVALID' });
    const bothAsked = edited(question, (copy) => {
      delete copy.pending;
      delete copy.state.current.pending;
    });
    expect(checkpointShapeProblems(bothAsked, ask.build).map((problem) => problem.path)).toEqual(['state.current.pending', 'pending']);
  });

  it("makes the engine's resume refuse a damaged checkpoint naming the field, as agentcheck resume does its file", async () => {
    const checkpoint = await agentPause();
    const damaged = edited(checkpoint, (copy) => (copy.pending.foo = 1)) as Checkpoint;
    await expect(resume(agentRevision, damaged, 'approve', { script: agentScript })).rejects.toMatchObject({
      code: 'CHECKPOINT_INVALID',
      message: expect.stringContaining('it is damaged: pending.foo: unknown key "foo"'),
    });
  });
});
