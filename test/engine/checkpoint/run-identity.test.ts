import { describe, expect, it } from 'vitest';
import { pausedRuns } from '../../../src/engine/checkpoint/paused-runs.js';
import { invoke } from '../../../src/engine/invoke.js';
import { resume } from '../../../src/engine/resume.js';
import { build } from '../../helpers/run-agent.js';

// No installTracing() in this file: the OpenTelemetry API is the no-op one, as for a library
// user who never set tracing up.
const remove = { name: 'delete_order', description: 'Delete.', permission: 'ask', parameters: { type: 'object' }, returns: { ok: true } };
const revision = build({ tools: [remove] });
const scriptFor = (id: string) => [{ tool_calls: [{ name: 'delete_order', args: { id } }] }, { text: `Deleted ${id}.` }];

describe('run identity without installTracing()', () => {
  it('gives every run its own non-zero trace id', async () => {
    const [a, b] = await Promise.all([
      invoke(revision, { messages: [{ role: 'user', content: 'go' }] }, { script: scriptFor('1') }),
      invoke(revision, { messages: [{ role: 'user', content: 'go' }] }, { script: scriptFor('2') }),
    ]);
    expect(a.trace_id).toMatch(/^[0-9a-f]{32}$/);
    expect(a.trace_id).not.toBe('0'.repeat(32));
    expect(b.trace_id).not.toBe(a.trace_id);
  });

  it('keeps two concurrent paused runs apart: each resumes its own pause', async () => {
    const [a, b] = await Promise.all([
      invoke(revision, { messages: [{ role: 'user', content: 'go' }] }, { script: scriptFor('1') }),
      invoke(revision, { messages: [{ role: 'user', content: 'go' }] }, { script: scriptFor('2') }),
    ]);
    expect([a.stop_reason, b.stop_reason]).toEqual(['paused', 'paused']);
    // Both wait at the same interaction id: only the trace id tells them apart.
    expect(a.pending_interaction?.id).toBe(b.pending_interaction?.id);
    const pauseA = await pausedRuns.paused(a.trace_id, a.pending_interaction!.id);
    const pauseB = await pausedRuns.paused(b.trace_id, b.pending_interaction!.id);
    expect(pauseA?.pending?.args).toEqual({ id: '1' });
    expect(pauseB?.pending?.args).toEqual({ id: '2' });
    expect((await pausedRuns.latest(a.trace_id))?.pending?.args).toEqual({ id: '1' });
    expect(await pausedRuns.paused(a.trace_id, 'approval_other')).toBeUndefined();
    const resumedB = await resume(revision, pauseB!, 'approve', { script: scriptFor('2') });
    expect(resumedB.output).toBe('Deleted 2.');
  });
});
