import { describe, expect, it } from 'vitest';
import { MemoryCheckpointer } from '../../../src/engine/checkpoint/memory-checkpointer.js';
import { pausedRuns } from '../../../src/engine/checkpoint/paused-runs.js';
import { build } from '../../helpers/run-agent.js';
import { invokeScripted, resumeScripted } from '../../helpers/run-resumable.js';

const remove = { name: 'delete_order', description: 'Delete.', permission: 'ask', parameters: { type: 'object' }, returns: { ok: true } };
const revision = build({ tools: [remove] });
const script = [{ tool_calls: [{ name: 'delete_order', args: { id: '7' } }] }, { text: 'Deleted.' }];

describe('paused runs without a checkpointer', () => {
  it('keep their pause in memory, so the turn can be resumed', async () => {
    const { turn } = await invokeScripted(revision, {}, { script });
    expect(turn.stop_reason).toBe('paused');
    const checkpoint = await pausedRuns.latest(turn.trace_id);
    expect(checkpoint?.pending).toMatchObject({ tool: 'delete_order', args: { id: '7' } });
    expect(await pausedRuns.list(turn.trace_id)).toHaveLength(1); // only the pause, not every round
    const resumed = await resumeScripted(revision, checkpoint!, 'approve', { script });
    expect(resumed.turn.stop_reason).toBe('end_turn');
    expect(resumed.turn.output).toBe('Deleted.');
  });

  it('save nothing for runs that do not pause', async () => {
    const { turn } = await invokeScripted(build({ tools: [{ ...remove, permission: 'allow' }] }), {}, { script });
    expect(turn.stop_reason).toBe('end_turn');
    expect(await pausedRuns.latest(turn.trace_id)).toBeUndefined();
  });

  it('stay bounded: the oldest run is forgotten past the limit', async () => {
    const store = new MemoryCheckpointer(2);
    const base = {
      seq: 1,
      revisionHash: 'h',
      deltaHash: null,
      modelCalls: 0,
      kind: 'agent' as const,
      state: { messages: [], turns: 0, usage: { input_tokens: 0, output_tokens: 0 } },
    };
    for (const traceId of ['a', 'b', 'c']) store.save({ ...base, id: `${traceId}:1`, traceId });
    expect(await store.latest('a')).toBeUndefined();
    expect((await store.latest('c'))?.id).toBe('c:1');
  });
});
