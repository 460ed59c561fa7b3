import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { revisionFromValue } from '../../../src/engine/revision/load-build.js';
import { FolderWorkspace } from '../../../src/engine/workspace/folder-workspace.js';
import type { SpanRecord } from '../../../src/spans/span-record.js';
import { NO_MODEL_CALL, runScripted, toolSpans } from '../../helpers/run-agent.js';
import { lineage, spanNamed } from '../../helpers/span-tree.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { configFixerBuild } from './config-fixer.js';

function flowState(spans: SpanRecord[]) {
  const root = spans.find((span) => span.parent_id === null);
  return JSON.parse(String(root?.attributes['agentcheck.flow.state']));
}

const goal = [{ role: 'user' as const, content: 'Fix the config.' }];

describe('flows', () => {
  it('runs a deterministic step that reads a file and an agent component that consumes its tool_result', async () => {
    const dir = tempDir({ 'config.json': '{"port": "80"}' });
    const { turn, spans, model } = await runScripted(
      revisionFromValue(configFixerBuild()),
      [{ tool_calls: [{ name: 'edit_file', args: { path: 'config.json', old: '"80"', new: '80' } }] }, { text: 'done' }],
      { messages: goal, context: { config_path: 'config.json' }, workspace: FolderWorkspace.at(dir) },
    );

    expect(turn.stop_reason).toBe('end_turn');
    expect(turn.output).toBe('done');
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe('{"port": 80}');
    // The agent component sees its inputs and only its toolset.
    expect(model.requests[0].system).toBe('You fix configuration files.');
    expect(model.requests[0].messages).toEqual([{ role: 'user', content: 'context:read_config.tool_result:\n{"port": "80"}' }]);
    expect(model.requests[0].tools.map((tool) => tool.name)).toEqual(['edit_file']);
    expect(turn.messages.map((m) => m.role)).toEqual(['user', 'user', 'assistant', 'tool', 'assistant']);

    const state = flowState(spans);
    expect(state.status).toBe('completed');
    expect(state.context).toEqual({
      config_path: 'config.json',
      goal: 'Fix the config.',
      read_config: { tool_result: '{"port": "80"}', error: null },
      fixer: { final_answer: 'done' },
    });
    expect(state.ui_chat_log).toEqual([
      { type: 'tool', component: 'read_config', tool: 'read_file', arguments: { path: 'config.json' }, status: 'ok' },
      { type: 'agent', component: 'fixer', content: 'done' },
    ]);

    const read = toolSpans(spans).find((s) => s.name === 'execute_tool read_file') as SpanRecord;
    expect(read.attributes['agentcheck.tool.source']).toBe('flow');
    expect(lineage(spans, read)).toEqual(['execute_tool read_file', 'component read_config', 'invoke_workflow fix-config', 'invoke_agent Config fixer']);
    const edit = toolSpans(spans).find((s) => s.name === 'execute_tool edit_file') as SpanRecord;
    expect(lineage(spans, edit)).toEqual(['execute_tool edit_file', 'component fixer', 'invoke_workflow fix-config', 'invoke_agent Config fixer']);
    expect(spanNamed(spans, 'component fixer').attributes).toMatchObject({ 'agentcheck.component.name': 'fixer', 'agentcheck.component.type': 'agent' });
    expect(spanNamed(spans, 'invoke_workflow fix-config').attributes['agentcheck.flow.name']).toBe('fix-config');
    expect(lineage(spans, spans.find((s) => s.name.startsWith('chat ')) as SpanRecord).slice(1)).toEqual([
      'component fixer',
      'invoke_workflow fix-config',
      'invoke_agent Config fixer',
    ]);
  });

  it('writes error (and a null tool_result) for a failing step without throwing, and clears it when the step succeeds later', async () => {
    const dir = tempDir();
    const revision = revisionFromValue({
      id: 'retry-read',
      agent: { name: 'Creator', tools: [{ name: 'write_file', description: 'Write.', builtin: 'write_file' }] },
      flow: {
        entry_point: 'read',
        components: [
          { name: 'read', type: 'deterministic_step', tool_name: 'read_file', inputs: [{ from: 'context:file', as: 'path' }] },
          { name: 'creator', type: 'agent', inputs: ['context:read.error'], toolset: ['write_file'] },
        ],
        routers: [
          { from: 'read', condition: { input: 'context:read.error', routes: { null: 'end', default_route: 'creator' } } },
          { from: 'creator', to: 'read' },
        ],
      },
    });
    const { turn, spans } = await runScripted(
      revision,
      [{ tool_calls: [{ name: 'write_file', args: { path: 'notes.md', content: 'hi' } }] }, { text: 'created' }],
      { context: { file: 'notes.md' }, workspace: FolderWorkspace.at(dir) },
    );
    expect(turn.stop_reason).toBe('end_turn');
    const state = flowState(spans);
    expect(state.context.read).toEqual({ tool_result: 'hi', error: null });
    const [failed, , succeeded] = state.ui_chat_log;
    expect(failed).toMatchObject({ type: 'tool', component: 'read', status: 'error' });
    expect(failed.error).toContain('notes.md');
    expect(succeeded).toMatchObject({ component: 'read', status: 'ok' });
    const components = spans.filter((s) => s.name.startsWith('component ')).map((s) => [s.name, s.status]);
    expect(components).toEqual([
      ['component read', 'error'],
      ['component creator', 'unset'],
      ['component read', 'unset'],
    ]);
  });

  it('takes default_route when no route matches, and errors when there is none', async () => {
    const dir = tempDir({ 'config.json': '{}' });
    const options = { messages: goal, context: { config_path: 'config.json' }, workspace: FolderWorkspace.at(dir), approvals: { default: 'approve' as const } };
    const routed = await runScripted(revisionFromValue(configFixerBuild()), [{ text: 'please check' }], options);
    expect(routed.turn.stop_reason).toBe('end_turn');
    expect(flowState(routed.spans).context.review).toEqual({ decision: 'approve', response: null });

    const stuck = await runScripted(revisionFromValue(configFixerBuild({ routes: { done: 'end', review: 'review' } })), [{ text: 'please check' }], options);
    expect(stuck.turn.stop_reason).toBe('error');
    expect(stuck.turn.error).toEqual({
      type: 'FLOW_NO_ROUTE',
      message:
        'router from "fixer": context:fixer.final_answer is "please check", which matches none of the routes ("done", "review") and there is no default_route',
    });
    expect(stuck.turn.output).toBe('please check');
    expect(flowState(stuck.spans).status).toBe('error');
    expect(spanNamed(stuck.spans, 'invoke_workflow fix-config').status).toBe('error');
  });

  it('routes a missing optional router input to default_route, never to a route keyed "undefined"', async () => {
    const build = (routes: Record<string, string>) =>
      revisionFromValue({
        id: 'miss',
        agent: { name: 'Miss' },
        flow: {
          entry_point: 'a',
          components: [
            { name: 'a', type: 'deterministic_step', tool_name: 'echo', inputs: [{ literal: 'x', as: 'text' }] },
            { name: 'b', type: 'deterministic_step', tool_name: 'echo', inputs: [{ literal: 'y', as: 'text' }] },
          ],
          routers: [
            { from: 'a', condition: { input: { from: 'context:a.nothing', optional: true }, routes } },
            { from: 'b', to: 'end' },
          ],
        },
      });
    const routed = await runScripted(build({ undefined: 'end', default_route: 'b' }), NO_MODEL_CALL);
    expect(routed.turn.stop_reason).toBe('end_turn');
    expect(flowState(routed.spans).ui_chat_log.map((entry: { component: string }) => entry.component)).toEqual(['a', 'b']);
    const stuck = await runScripted(build({ undefined: 'b' }), NO_MODEL_CALL);
    expect(stuck.turn.error).toEqual({
      type: 'FLOW_NO_ROUTE',
      message: 'router from "a": context:a.nothing is missing (optional), so only default_route can match and there is no default_route',
    });
  });

  it('answers human_input from the approval policy: approve, reject, or a response text', async () => {
    const dir = tempDir({ 'config.json': '{}' });
    const run = async (approvals: Record<string, unknown>) => {
      const { spans } = await runScripted(revisionFromValue(configFixerBuild()), [{ text: 'check it' }], {
        messages: goal,
        context: { config_path: 'config.json' },
        workspace: FolderWorkspace.at(dir),
        approvals,
      });
      return flowState(spans);
    };
    expect((await run({ tools: { review: 'reject' } })).context.review).toEqual({ decision: 'reject', response: null });
    expect((await run({ tools: { review: 'deny' } })).context.review).toEqual({ decision: 'reject', response: null });
    const answered = await run({ tools: { review: 'Looks fine, ship it.' }, default: 'deny' });
    expect(answered.context.review).toEqual({ decision: null, response: 'Looks fine, ship it.' });
    expect(answered.ui_chat_log[2]).toEqual({ type: 'human_input', component: 'review', decision: null, response: 'Looks fine, ship it.' });
  });

  it('runs a plan component with its inputs as variables, and literal and optional inputs', async () => {
    const revision = revisionFromValue({
      id: 'planner',
      agent: { name: 'Planner' },
      flow: {
        entry_point: 'greet',
        components: [
          { name: 'greet', type: 'deterministic_step', tool_name: 'echo', inputs: [{ literal: 'hello', as: 'text' }] },
          {
            name: 'steps',
            type: 'plan',
            inputs: ['context:greet.tool_result', { from: 'context:names', as: 'names' }, { from: 'context:nothing', optional: true }],
            plan: {
              steps: [
                {
                  tools: [
                    {
                      name: 'for_each',
                      items: '{{ names }}',
                      each_item: { item_name: 'n', tools: [{ name: 'echo', arguments: { text: '{{ tool_result }} {{ n }}' } }] },
                    },
                  ],
                },
              ],
            },
          },
          { name: 'stop', type: 'end' },
        ],
        routers: [
          { from: 'greet', to: 'steps' },
          { from: 'steps', to: 'stop' },
        ],
      },
    });
    const { turn, spans } = await runScripted(revision, NO_MODEL_CALL, { context: { names: ['Ann', 'Bo'] } });
    expect(turn.stop_reason).toBe('end_turn');
    const state = flowState(spans);
    expect(state.context.steps).toEqual({
      tool_result: { variables: { tool_result: 'hello', names: ['Ann', 'Bo'] }, log: ['hello Ann', 'hello Bo'] },
      error: null,
    });
    const step = spans.find((s) => s.name === 'plan_step echo') as SpanRecord;
    // The plan runs as a call named after the component (docs/workflows.md), its steps under it.
    expect(lineage(spans, step)).toEqual([
      'plan_step echo',
      'plan_step for_each',
      'execute_tool steps',
      'component steps',
      'invoke_workflow planner',
      'invoke_agent Planner',
    ]);
  });

  it('ends with a run error naming the input when a required key is missing', async () => {
    const { turn, spans } = await runScripted(revisionFromValue(configFixerBuild()), NO_MODEL_CALL, { messages: goal });
    expect(turn.stop_reason).toBe('error');
    expect(turn.error?.type).toBe('FLOW_MISSING_INPUT');
    expect(turn.error?.message).toContain('component "read_config": input "context:config_path" is not in the flow state');
    expect(spanNamed(spans, 'component read_config').status).toBe('error');
  });
});
