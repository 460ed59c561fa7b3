import { describe, expect, it } from 'vitest';
import { executeTestRun } from '../../../src/runner/test-run.js';
import { CLI, ROOT } from '../../e2e/cli.js';
import { call, connectAgentcheck, text } from './mcp-client.js';

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

  it('refuses test_run and resume_run of a server started inside a run before reading their arguments', async () => {
    const client = await connectAgentcheck(ROOT, { AGENTCHECK_INSIDE_RUN: '1' });
    try {
      const refusal = 'RECURSION_GUARD: test_run was called from inside a test_run; runs nest at most one level deep';
      // A missing build is not named first: a model would fix the path, only to be refused then.
      const missing = await call(client, 'test_run', { agent: 'agents/no-such-build.yaml', inputs: { messages: [{ role: 'user', content: 'hi' }] } });
      expect(missing).toMatchObject({ isError: true });
      expect(text(missing)).toBe(refusal);
      const unknown = await call(client, 'resume_run', { run_id: 'never-paused', decision: 'approve' });
      expect(text(unknown)).toBe(refusal);
      // Nor is an argument's form: arguments the input schema refuses get the guard's answer too.
      const malformed: Array<[string, Record<string, unknown>]> = [
        ['test_run', { agent: 'fixtures/agents/support-bot.yaml', inputs: { messages: [] } }],
        ['test_run', { agent: 'fixtures/agents/support-bot.yaml', inputs: { messages: [{ role: 'user', content: 'hi' }] }, timeout_ms: 0 }],
        ['test_run', { agent: 'fixtures/agents/support-bot.yaml', inputs: { messages: [{ role: 'user', content: 'hi' }] }, bogus: 1 }],
        ['resume_run', { run_id: 'never-paused', decision: 'maybe' }],
      ];
      for (const [tool, args] of malformed) {
        const answer = await call(client, tool, args);
        expect(answer, JSON.stringify(args)).toMatchObject({ isError: true });
        expect(text(answer), JSON.stringify(args)).toBe(refusal);
      }
      // What runs nothing still answers.
      const validated = await call(client, 'validate', { paths: ['fixtures/agents/support-bot.yaml'] });
      expect(validated.structuredContent).toMatchObject({ ok: true });
    } finally {
      await client.close();
    }
  });
});
