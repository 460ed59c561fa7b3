import { describe, expect, it } from 'vitest';
import { MAX_EVIDENCE_STRING_CHARS } from '../../../src/engine/flow/flow-state.js';
import { revisionFromValue } from '../../../src/engine/revision/load-build.js';
import { FolderWorkspace } from '../../../src/engine/workspace/folder-workspace.js';
import { memoryLocator } from '../../../src/config/assert-format.js';
import { buildEvidence } from '../../../src/verdicts/evidence.js';
import { runChecks, validateChecks } from '../../../src/verdicts/run-checks.js';
import { runScripted } from '../../helpers/run-agent.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { configFixerBuild } from './config-fixer.js';

const goal = [{ role: 'user' as const, content: 'Fix the config.' }];

/** Runs the `state` checks on the evidence of a finished run. */
function stateChecks(spans: Parameters<typeof buildEvidence>[0]['spans'], checks: Array<Record<string, unknown>>) {
  const list = checks.map((params) => ({ state: params }));
  validateChecks(list, memoryLocator('scenario.yaml', ['expect', 'checks']));
  return runChecks(list, buildEvidence({ spans }));
}

describe('flows: the recorded state (agentcheck.flow.state)', () => {
  it('records conversation_history per agent component, so state checks can read it', async () => {
    const dir = tempDir({ 'config.json': '{"port": "80"}' });
    const { turn, spans } = await runScripted(
      revisionFromValue(configFixerBuild()),
      [{ tool_calls: [{ name: 'edit_file', args: { path: 'config.json', old: '"80"', new: '80' } }] }, { text: 'done' }],
      { messages: goal, context: { config_path: 'config.json' }, workspace: FolderWorkspace.at(dir) },
    );
    expect(turn.stop_reason).toBe('end_turn');

    const results = stateChecks(spans, [
      { key: 'conversation_history:fixer', exists: true },
      { key: 'conversation_history:fixer.0.content', equals: 'context:read_config.tool_result:\n{"port": "80"}' },
      { key: 'conversation_history:fixer.1.tool_calls.0.tool_name', equals: 'edit_file' },
      { key: 'conversation_history:fixer.3.content', equals: 'done' },
      { key: 'conversation_history:read_config', exists: false },
    ]);
    expect(results.map((r) => [r.status, r.reason])).toEqual(results.map((r) => ['pass', r.reason]));
    const root = spans.find((span) => span.parent_id === null);
    const recorded = JSON.parse(String(root?.attributes['agentcheck.flow.state']));
    expect(Object.keys(recorded)).toEqual(['status', 'context', 'ui_chat_log', 'conversation_history']);
    expect(recorded.conversation_history.fixer.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('cuts very long strings in the recorded conversation, with a marker', async () => {
    const long = 'x'.repeat(MAX_EVIDENCE_STRING_CHARS + 250);
    const dir = tempDir({ 'config.json': long });
    const { spans } = await runScripted(revisionFromValue(configFixerBuild()), [{ text: 'done' }], {
      messages: goal,
      context: { config_path: 'config.json' },
      workspace: FolderWorkspace.at(dir),
    });
    const root = spans.find((span) => span.parent_id === null);
    const recorded = JSON.parse(String(root?.attributes['agentcheck.flow.state']));
    const prompt = recorded.conversation_history.fixer[0].content as string;
    expect(prompt.length).toBeLessThan(MAX_EVIDENCE_STRING_CHARS + 100);
    const header = 'context:read_config.tool_result:\n';
    expect(prompt).toBe(
      `${(header + long).slice(0, MAX_EVIDENCE_STRING_CHARS)}[truncated ${header.length + long.length - MAX_EVIDENCE_STRING_CHARS} characters]`,
    );
    const results = stateChecks(spans, [{ key: 'conversation_history:fixer.0.content', contains: 'truncated' }]);
    expect(results[0].status).toBe('pass');
  });
});
