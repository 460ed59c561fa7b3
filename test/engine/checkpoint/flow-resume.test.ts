import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryCheckpointer } from '../../../src/engine/checkpoint/memory-checkpointer.js';
import { revisionFromValue } from '../../../src/engine/revision/load-build.js';
import { FolderWorkspace } from '../../../src/engine/workspace/folder-workspace.js';
import type { SpanRecord } from '../../../src/spans/span-record.js';
import { comparable, invokeScripted, resumeScripted } from '../../helpers/run-resumable.js';
import { lineage, spanNamed } from '../../helpers/span-tree.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { configFixerBuild } from '../flow/config-fixer.js';

const messages = [{ role: 'user' as const, content: 'Fix the config.' }];

function flowState(spans: SpanRecord[]) {
  return JSON.parse(String(spans.find((span) => span.parent_id === null)?.attributes['agentcheck.flow.state']));
}

/** Runs the config-fixer flow in a fresh copy of a config folder until it pauses. */
async function pause(build: ReturnType<typeof configFixerBuild>, script: Array<Record<string, unknown>>) {
  const revision = revisionFromValue(build);
  const dir = tempDir({ 'config.json': '{"port": "80"}' });
  const checkpointer = new MemoryCheckpointer();
  const options = { script, checkpointer, workspace: FolderWorkspace.at(dir) };
  const { turn, spans } = await invokeScripted(revision, { messages, context: { config_path: 'config.json' } }, options);
  const checkpoint = await checkpointer.latest(turn.trace_id);
  if (!checkpoint) throw new Error('no checkpoint');
  return { revision, dir, turn, spans, checkpoint, options };
}

describe('checkpoints and resume: flows', () => {
  it('pauses at human_input, then resumes with approve, reject or a response', async () => {
    const script = [{ text: 'changed the port, please check' }];
    const { revision, turn, spans, checkpoint, options } = await pause(configFixerBuild(), script);
    expect(turn.stop_reason).toBe('paused');
    expect(turn.output).toBe('changed the port, please check');
    expect(turn.pending_interaction).toEqual({
      id: 'human_input_flow_review_3',
      tool: 'review',
      tool_call_id: 'flow_review_3',
      args: { final_answer: 'changed the port, please check' },
    });
    expect(flowState(spans).status).toBe('input_required');
    expect(spanNamed(spans, 'component review').attributes['agentcheck.human_input.decision']).toBe('pending');
    expect(checkpoint).toMatchObject({ kind: 'flow', modelCalls: 1, pending: { tool: 'review' } });

    const approved = await resumeScripted(revision, checkpoint, 'approve', options);
    expect(approved.turn.stop_reason).toBe('end_turn');
    expect(approved.turn.messages).toEqual(turn.messages);
    expect(approved.turn.output).toBe('changed the port, please check');
    const state = flowState(approved.spans);
    expect(state.status).toBe('completed');
    expect(state.context.review).toEqual({ decision: 'approve', response: null });
    expect(state.context.read_config).toEqual({ tool_result: '{"port": "80"}', error: null });
    expect(lineage(approved.spans, spanNamed(approved.spans, 'component review'))).toEqual([
      'component review',
      'invoke_workflow fix-config',
      'invoke_agent Config fixer',
    ]);

    expect(flowState((await resumeScripted(revision, checkpoint, 'reject', options)).spans).context.review).toEqual({ decision: 'reject', response: null });
    expect(flowState((await resumeScripted(revision, checkpoint, 'Use 8080.', options)).spans).context.review).toEqual({
      decision: null,
      response: 'Use 8080.',
    });
  });

  it('gives the same result when resumed twice from the same checkpoint', async () => {
    const { revision, checkpoint, options } = await pause(configFixerBuild(), [{ text: 'please check' }]);
    const first = await resumeScripted(revision, checkpoint, 'Looks good.', options);
    const second = await resumeScripted(revision, checkpoint, 'Looks good.', options);
    expect(comparable(second.turn)).toEqual(comparable(first.turn));
    expect(flowState(second.spans)).toEqual(flowState(first.spans));
  });

  it('pauses at a tool gate inside an agent component and resumes with approve or deny', async () => {
    const gated = configFixerBuild({ tools: [{ name: 'edit_file', description: 'Edit a file.', builtin: 'edit_file', permission: 'ask' }] });
    const script = [{ tool_calls: [{ name: 'edit_file', args: { path: 'config.json', old: '"80"', new: '80' } }] }, { text: 'done' }];
    const { revision, dir, turn, spans, checkpoint, options } = await pause(gated, script);
    expect(turn.stop_reason).toBe('paused');
    expect(turn.pending_interaction).toMatchObject({ tool: 'edit_file', args: { path: 'config.json' } });
    expect(turn.messages.map((m) => m.role)).toEqual(['user', 'user', 'assistant']);
    expect(flowState(spans).status).toBe('approval_required');
    expect(checkpoint.modelCalls).toBe(1);

    const denied = await resumeScripted(revision, checkpoint, 'deny', options);
    expect(denied.turn.stop_reason).toBe('end_turn');
    expect(denied.turn.messages[3]).toMatchObject({ role: 'tool', is_error: true });
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe('{"port": "80"}');

    const approved = await resumeScripted(revision, checkpoint, 'approve', options);
    expect(approved.turn.stop_reason).toBe('end_turn');
    expect(approved.turn.messages.map((m) => m.role)).toEqual(['user', 'user', 'assistant', 'tool', 'assistant']);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe('{"port": 80}');
    const state = flowState(approved.spans);
    expect(state.context.fixer).toEqual({ final_answer: 'done' });
    expect(state.status).toBe('completed');
  });

  it('pauses at a gated deterministic step and resumes it', async () => {
    const gated = configFixerBuild();
    gated.agent.tools.push({ name: 'read_config_file', description: 'Read.', builtin: 'read_file', permission: 'ask' });
    gated.flow.components[0].tool_name = 'read_config_file';
    const { revision, turn, checkpoint, options } = await pause(gated, [{ text: 'done' }]);
    expect(turn.stop_reason).toBe('paused');
    expect(turn.pending_interaction).toEqual({
      id: 'approval_flow_read_config_1',
      tool: 'read_config_file',
      tool_call_id: 'flow_read_config_1',
      args: { path: 'config.json' },
    });
    expect(checkpoint.modelCalls).toBe(0);

    const approved = await resumeScripted(revision, checkpoint, 'approve', options);
    expect(approved.turn.stop_reason).toBe('end_turn');
    expect(flowState(approved.spans).context.read_config).toEqual({ tool_result: '{"port": "80"}', error: null });

    const denied = await resumeScripted(revision, checkpoint, 'deny', options);
    const read = flowState(denied.spans).context.read_config;
    expect(read.tool_result).toBeNull();
    expect(read.error).toContain('Denied');
  });

  it('checkpoints after each component and each tool round of an agent component', async () => {
    const { revision } = await pause(configFixerBuild(), [{ text: 'x' }]);
    const dir = tempDir({ 'config.json': '{}' });
    const checkpointer = new MemoryCheckpointer();
    const script = [{ tool_calls: [{ name: 'edit_file', args: { path: 'config.json', old: '{}', new: '{"a":1}' } }] }, { text: 'done' }];
    const { turn } = await invokeScripted(
      revision,
      { messages, context: { config_path: 'config.json' } },
      { script, checkpointer, workspace: FolderWorkspace.at(dir) },
    );
    const saved = await checkpointer.list(turn.trace_id);
    expect(saved.map((c) => [c.kind, c.kind === 'flow' ? c.state.next : null, c.kind === 'flow' ? (c.state.current?.component ?? null) : null])).toEqual([
      ['flow', 'fixer', null],
      ['flow', 'fixer', 'fixer'],
      ['flow', null, null],
    ]);
  });
});
