import type { AgentBuild, AgentSpec, FlowSpec, ToolSpec } from '../../../src/engine/revision/types.js';

/** A build whose flow and tool list are present (tests edit them). */
export type FlowBuild = AgentBuild & { agent: AgentSpec & { tools: ToolSpec[] }; flow: FlowSpec & { routers: NonNullable<FlowSpec['routers']> } };

/** The config-fixer flow of docs/workflows.md as a build value, with overridable parts for tests. */
export function configFixerBuild(overrides: { routes?: Record<string, string>; tools?: Record<string, unknown>[] } = {}): FlowBuild {
  return {
    id: 'config-fixer',
    agent: {
      name: 'Config fixer',
      instructions: 'You fix configuration files.',
      tools: (overrides.tools as ToolSpec[] | undefined) ?? [
        { name: 'edit_file', description: 'Edit a file.', builtin: 'edit_file' },
        { name: 'lookup', description: 'Not for the fixer.', returns: 'x' },
      ],
    },
    flow: {
      name: 'fix-config',
      entry_point: 'read_config',
      components: [
        { name: 'read_config', type: 'deterministic_step', tool_name: 'read_file', inputs: [{ from: 'context:config_path', as: 'path' }] },
        { name: 'fixer', type: 'agent', inputs: ['context:read_config.tool_result'], toolset: ['edit_file'] },
        { name: 'review', type: 'human_input', inputs: ['context:fixer.final_answer'] },
      ],
      routers: [
        { from: 'read_config', to: 'fixer' },
        { from: 'fixer', condition: { input: 'context:fixer.final_answer', routes: overrides.routes ?? { done: 'end', default_route: 'review' } } },
        { from: 'review', to: 'end' },
      ],
    },
  };
}
