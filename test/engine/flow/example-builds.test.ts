import { describe, expect, it } from 'vitest';
import { loadAgentBuild } from '../../../src/engine/revision/load-build.js';
import { FolderWorkspace } from '../../../src/engine/workspace/folder-workspace.js';
import { runScripted } from '../../helpers/run-agent.js';

const fixture = (name: string) => new URL(`../../../fixtures/${name}`, import.meta.url).pathname;

describe('example builds in fixtures/agents', () => {
  it('load: the flow, the plan tool and the chain tool', () => {
    expect(loadAgentBuild(fixture('agents/config-fixer-flow.yaml')).build.flow?.entry_point).toBe('read_config');
    expect(loadAgentBuild(fixture('agents/file-report-plan.yaml')).build.agent?.tools?.[0].plan).toBeDefined();
    expect(loadAgentBuild(fixture('agents/fallback-chain.yaml')).build.agent?.tools?.[2].chain).toBeDefined();
  });

  it('run the file_report plan over the notes workspace', async () => {
    const workspace = FolderWorkspace.copyOf(fixture('workspaces/notes'));
    try {
      const { turn } = await runScripted(
        loadAgentBuild(fixture('agents/file-report-plan.yaml')),
        [{ tool_calls: [{ name: 'file_report', args: { pattern: '\\.md$' } }] }, { text: 'ok' }],
        { workspace },
      );
      const result = turn.messages.find((m) => m.role === 'tool');
      expect(result && JSON.parse(result.content).log).toEqual(['empty: notes/empty.md', 'has content: notes/ideas.md', 'has content: notes/todo.md']);
    } finally {
      await workspace.dispose();
    }
  });
});
