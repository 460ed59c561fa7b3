import { describe, expect, it } from 'vitest';
import { checkpointShapeProblems } from '../../../src/engine/checkpoint/checkpoint-shape.js';
import type { Checkpoint } from '../../../src/engine/checkpoint/checkpointer.js';
import { MemoryCheckpointer } from '../../../src/engine/checkpoint/memory-checkpointer.js';
import { resume } from '../../../src/engine/resume.js';
import { revisionFromValue } from '../../../src/engine/revision/load-build.js';
import { invokeScripted, resumeScripted } from '../../helpers/run-resumable.js';

// A flow checkpoint holds the call it waits at twice, as `pending` and `state.current.pending`;
// each copy is held to the call the paused component makes when resumed (docs/workflows.md,
// Checkpoints), so a deleted or edited copy is refused rather than ignored by the resumed run.

/** An agent component calling a gated tool, then a deterministic_step calling it, then a human_input. */
const revision = revisionFromValue({
  id: 'flow-bot',
  agent: {
    name: 'Flow bot',
    llm: { provider: 'scripted', model: 's' },
    tools: [
      {
        name: 'delete_order',
        description: 'Delete an order.',
        permission: 'ask',
        parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
        returns: { ok: true },
      },
    ],
  },
  flow: {
    entry_point: 'fixer',
    components: [
      { name: 'fixer', type: 'agent', prompt: 'Do it', toolset: ['delete_order'] },
      { name: 'step', type: 'deterministic_step', tool_name: 'delete_order', inputs: [{ literal: '55', as: 'order_id' }] },
      { name: 'review', type: 'human_input', inputs: ['context:fixer.final_answer'] },
    ],
    routers: [
      { from: 'fixer', to: 'step' },
      { from: 'step', to: 'review' },
      { from: 'review', to: 'end' },
    ],
  },
});
const script = [{ tool_calls: [{ name: 'delete_order', args: { order_id: '1234' }, id: 'call_1' }] }, { text: 'Order 1234 is deleted.' }];

/** The checkpoints of the run paused at each of its three components, in order: fixer, step, review. */
async function pauses(): Promise<Checkpoint[]> {
  const checkpointer = new MemoryCheckpointer();
  const options = { script, checkpointer };
  let { turn } = await invokeScripted(revision, {}, options);
  const found: Checkpoint[] = [];
  for (;;) {
    const checkpoint = await checkpointer.latest(turn.trace_id);
    if (turn.stop_reason !== 'paused' || !checkpoint) break;
    found.push(checkpoint);
    ({ turn } = await resumeScripted(revision, checkpoint, 'approve', options));
  }
  expect(found.map((checkpoint) => checkpoint.pending?.tool)).toEqual(['delete_order', 'delete_order', 'review']);
  return found;
}

/** A copy of `checkpoint` (as plain JSON, as a file holds it) changed by `edit`. */
function edited(checkpoint: Checkpoint, edit: (copy: Record<string, any>) => void): Checkpoint {
  const copy = JSON.parse(JSON.stringify(checkpoint));
  edit(copy);
  return copy;
}

const STEP = `the call deterministic_step "step" makes when resumed (from the build, the checkpoint's state.flow and state.executions)`;
const REVIEW = `the call human_input "review" makes when resumed (from the build, the checkpoint's state.flow and state.executions)`;

describe("a flow checkpoint's pending call, held to the call its paused component makes when resumed", () => {
  it('finds nothing in the checkpoints the engine saves at an agent component, a step and a human_input', async () => {
    for (const checkpoint of await pauses()) expect(checkpointShapeProblems(checkpoint, revision.build)).toEqual([]);
  });

  it("refuses a step's state.current.pending deleted, naming it as nothing and each edited field of pending (black-box bug)", async () => {
    const step = (await pauses())[1];
    const damaged = edited(step, (copy) => {
      delete copy.state.current.pending;
      copy.pending.tool = 'zzz';
      copy.pending.args = { anything: 1 };
    });
    expect(checkpointShapeProblems(damaged, revision.build)).toEqual([
      {
        path: 'state.current.pending',
        expected: `expected the call of tool "delete_order" (call id "flow_step_2", arguments {"order_id":"55"}), ${STEP}, got nothing`,
      },
      { path: 'pending.tool', expected: `expected "delete_order", the tool of ${STEP}, got "zzz"` },
      { path: 'pending.args', expected: `expected {"order_id":"55"}, the arguments of ${STEP}, got {"anything":1}` },
    ]);
    // The engine's resume refuses it before anything runs.
    await expect(resume(revision, damaged, 'approve', { script })).rejects.toMatchObject({
      code: 'CHECKPOINT_INVALID',
      message: expect.stringContaining(`pending.tool: expected "delete_order", the tool of ${STEP}, got "zzz"`),
    });
  });

  it('names only the copy that was edited, and both copies when both were edited alike, where the build says what the step calls', async () => {
    const step = (await pauses())[1];
    const inner = edited(step, (copy) => (copy.state.current.pending.tool_call_id = 'flow_step_9'));
    expect(checkpointShapeProblems(inner, revision.build)).toEqual([
      { path: 'state.current.pending.tool_call_id', expected: `expected "flow_step_2", the call id of ${STEP}, got "flow_step_9"` },
    ]);
    const both = edited(step, (copy) => {
      copy.pending.tool = 'zzz';
      copy.state.current.pending.tool = 'zzz';
    });
    expect(checkpointShapeProblems(both, revision.build)).toEqual([
      { path: 'state.current.pending.tool', expected: `expected "delete_order", the tool of ${STEP}, got "zzz"` },
      { path: 'pending.tool', expected: `expected "delete_order", the tool of ${STEP}, got "zzz"` },
    ]);
  });

  it("holds a human_input's copies to its name, its call id and the inputs it shows, read from the flow state", async () => {
    const review = (await pauses())[2];
    const deleted = edited(review, (copy) => delete copy.state.current.pending);
    expect(checkpointShapeProblems(deleted, revision.build)).toEqual([
      {
        path: 'state.current.pending',
        expected: `expected the call of tool "review" (call id "flow_review_3", arguments {"final_answer":"Order 1234 is deleted."}), ${REVIEW}, got nothing`,
      },
    ]);
    // The question a resume would ask is read from the context: changed there, neither copy holds it.
    const context = edited(review, (copy) => (copy.state.flow.context.fixer.final_answer = 'Nothing was deleted.'));
    const asked = `expected {"final_answer":"Nothing was deleted."}, the arguments of ${REVIEW}, got {"final_answer":"Order 1234 is deleted."}`;
    expect(checkpointShapeProblems(context, revision.build)).toEqual([
      { path: 'state.current.pending.args', expected: asked },
      { path: 'pending.args', expected: asked },
    ]);
    // An input the context lacks: the resumed human_input stops there, so its arguments are not held.
    const missing = edited(review, (copy) => delete copy.state.flow.context.fixer);
    expect(checkpointShapeProblems(missing, revision.build)).toEqual([]);
  });

  it("refuses an agent component's state.current.pending or loop deleted, which a resume would not answer from", async () => {
    const fixer = (await pauses())[0];
    const source = "the call the checkpoint's state.current.loop.messages[1].tool_calls[0] holds waiting (the call a resume answers)";
    expect(
      checkpointShapeProblems(
        edited(fixer, (copy) => delete copy.state.current.pending),
        revision.build,
      ),
    ).toEqual([
      {
        path: 'state.current.pending',
        expected: `expected the call of tool "delete_order" (call id "call_1", arguments {"order_id":"1234"}), ${source}, got nothing`,
      },
    ]);
    expect(
      checkpointShapeProblems(
        edited(fixer, (copy) => delete copy.state.current.loop),
        revision.build,
      ),
    ).toEqual([
      {
        path: 'state.current.loop',
        expected: "expected the agent component's loop state {messages, turns, usage}, whose messages hold the call it waits at, got nothing",
      },
    ]);
  });

  it('refuses a checkpoint waiting at a call with no component in progress, or one other than state.next names', async () => {
    const step = (await pauses())[1];
    expect(
      checkpointShapeProblems(
        edited(step, (copy) => delete copy.state.current),
        revision.build,
      ),
    ).toEqual([
      {
        path: 'state.current',
        expected: 'expected the component the run waits at {component, loop?, pending}, got nothing, though pending holds a call of tool "delete_order"',
      },
    ]);
    const moved = edited(step, (copy) => (copy.state.current.component = 'review'));
    expect(checkpointShapeProblems(moved, revision.build)).toEqual(
      expect.arrayContaining([
        {
          path: 'state.current.component',
          expected: 'expected "step", the component state.next names (a resume carries state.current into that one only), got "review"',
        },
      ]),
    );
  });
});
