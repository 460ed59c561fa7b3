import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/errors.js';
import { errorResult } from '../../../src/runner/mcp/tool-results.js';

describe("the MCP server's tool errors", () => {
  it("are scrubbed of the environment's secret variables, as the CLI's stderr is", () => {
    const token = 'mcptok-QRSTUVWX-13579';
    const saved = process.env.AGENTCHECK_TEST_MCP_TOKEN;
    process.env.AGENTCHECK_TEST_MCP_TOKEN = token;
    try {
      const result = errorResult(new ConfigError({ file: 'a.scenario.yaml', path: 'timeout_ms' }, `expected integer, got string "${token}"`));
      expect(result).toEqual({
        content: [{ type: 'text', text: 'invalid input: a.scenario.yaml at timeout_ms: expected integer, got string "[redacted]"' }],
        isError: true,
      });
    } finally {
      if (saved === undefined) delete process.env.AGENTCHECK_TEST_MCP_TOKEN;
      else process.env.AGENTCHECK_TEST_MCP_TOKEN = saved;
    }
  });
});
