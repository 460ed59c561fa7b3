import { afterEach, describe, expect, it, vi } from 'vitest';
import { runScripted, toolSpans } from '../../helpers/run-agent.js';
import { FORMAT_SERVER, mcpBuild, nodeArgv } from './mcp-helpers.js';

const contact = (args: Record<string, unknown>) => ({ tool_calls: [{ name: 'mcp__formats__contact', args }] });

afterEach(() => vi.restoreAllMocks());

describe("MCP tools: formats in a server's schema", () => {
  it('checks the standard ones and ignores one the harness does not know, without a warning', async () => {
    const warn = vi.spyOn(console, 'warn');
    const revision = mcpBuild([{ name: 'formats', command: nodeArgv(FORMAT_SERVER) }]);
    const { turn, spans } = await runScripted(revision, [
      contact({ email: 'not-an-email', code: 'x' }),
      contact({ email: 'ada@example.com', code: 'anything at all' }),
      { text: 'done' },
    ]);
    expect(turn.stop_reason).toBe('end_turn');
    const [bad, good] = toolSpans(spans);
    expect(bad.attributes['agentcheck.tool.outcome']).toBe('error');
    expect(bad.status_message).toBe('Invalid arguments for mcp__formats__contact: email: expected format "email", got string "not-an-email".');
    expect(good.attributes['agentcheck.tool.outcome']).toBe('ok');
    expect(String(good.attributes['gen_ai.tool.call.result'])).toContain('anything at all');
    expect(warn).not.toHaveBeenCalled();
  }, 60_000);
});
