import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/errors.js';
import { errorResult } from '../../../src/runner/mcp/tool-results.js';
import { argumentRefusal } from '../../../src/runner/mcp/argument-refusal.js';
import { testRunInput } from '../../../src/runner/mcp/test-run-schema.js';
import type { McpServerContext } from '../../../src/runner/mcp/server-context.js';
import { runValidate } from '../../../src/runner/mcp/validate-tool.js';
import { tempDir } from '../../helpers/temp-dir.js';

describe("the MCP server's tool errors", () => {
  it("are scrubbed of the environment's secret variables, as the CLI's stderr is", async () => {
    const token = 'mcptok-QRSTUVWX-13579';
    const saved = process.env.AGENTCHECK_TEST_MCP_TOKEN;
    process.env.AGENTCHECK_TEST_MCP_TOKEN = token;
    try {
      const result = errorResult(new ConfigError({ file: 'a.scenario.yaml', path: 'timeout_ms' }, `expected integer, got string "${token}"`));
      expect(result).toEqual({
        content: [{ type: 'text', text: 'invalid input: a.scenario.yaml at timeout_ms: expected integer, got string "[redacted]"' }],
        isError: true,
      });
      // So are the refusals of arguments the tool's schema refuses (an unknown key, a bad value).
      const refused = argumentRefusal('test_run', testRunInput, { agent: 'a.yaml', inputs: { messages: [{ role: 'user', content: 'hi' }] }, [token]: 1 });
      const text = refused?.content[0]?.type === 'text' ? refused.content[0].text : '';
      expect(text).toContain('Unrecognized key(s) in object: "[redacted]"');
      expect(text).not.toContain(token);
      // And validate's problems: a file's name, here, holds the key.
      const validated = await runValidate({ paths: [`${token}.yaml`] }, { cwd: tempDir() } as McpServerContext);
      expect(JSON.stringify(validated)).toContain('[redacted].yaml: path not found');
      expect(JSON.stringify(validated)).not.toContain(token);
    } finally {
      if (saved === undefined) delete process.env.AGENTCHECK_TEST_MCP_TOKEN;
      else process.env.AGENTCHECK_TEST_MCP_TOKEN = saved;
    }
  });
});
