import { describe, expect, it } from 'vitest';
import { executeTestRun } from '../../../src/runner/test-run.js';
import { CLI, ROOT } from '../../e2e/cli.js';

describe('the recursion guard across processes', () => {
  it('refuses a test_run that an agent run reaches through `agentcheck mcp` as its toolset', async () => {
    const inner = {
      agent: 'fixtures/agents/support-bot.yaml',
      inputs: { messages: [{ role: 'user', content: 'refund' }] },
      script: [{ text: 'never runs' }],
    };
    const record = await executeTestRun({
      agent: {
        id: 'builder',
        agent: {
          name: 'Builder',
          llm: { provider: 'scripted', model: 'builder' },
          mcps: [{ name: 'agentcheck', command: [process.execPath, CLI, 'mcp'], tools: ['test_run'] }],
        },
      },
      inputs: { messages: [{ role: 'user', content: 'test the support bot' }] },
      expectations: { terminal_tool: 'test_run' },
      script: [{ tool_calls: [{ name: 'mcp__agentcheck__test_run', args: inner }] }, { text: 'could not test' }],
      env: { PATH: process.env.PATH },
    });
    await record.workspace.dispose();
    expect(process.cwd()).toBe(ROOT); // the inline build's server runs here, where the fixture path resolves
    const result = record.turn.messages.find((message) => message.role === 'tool');
    expect(result).toMatchObject({ is_error: true, tool_name: 'mcp__agentcheck__test_run' });
    expect(result && 'content' in result ? result.content : '').toMatch(/^RECURSION_GUARD: test_run was called from inside a test_run/);
    expect(record.result.verdict).toBe('failed');
    expect(record.result.tools).toEqual([{ name: 'test_run', called: 1, returned: 0, errors: 1, servers: { agentcheck: 1 } }]);
  });
});
