import { trace } from '@opentelemetry/api';
import type { Tool as McpToolInfo } from '@modelcontextprotocol/sdk/types.js';
import { AgentcheckError } from '../../config/errors.js';
import { userSchemaProblem } from '../../config/user-schema-problem.js';
import { ATTR } from '../../spans/conventions.js';
import type { McpServerSpec } from '../revision/types.js';
import type { Tool, ToolOutcome } from '../tools/tool.js';
import type { McpConnection } from './mcp-connection.js';
import { mcpOutcome } from './mcp-result.js';
import { mcpToolName } from './mcp-tool-name.js';

/**
 * One tool of an MCP server as an agent tool (kind `mcp`): its input schema and read-only hint
 * come from the server, its permission from the agent's `mcps` entry. Calls go through the
 * shared call path like every other tool; this only sends `tools/call` and reads the answer.
 */
export function createMcpTool(server: McpServerSpec, info: McpToolInfo, connection: McpConnection): Tool {
  return {
    name: mcpToolName(server.name, info.name),
    description: info.description ?? info.title ?? '',
    parameters: toolParameters(info.inputSchema),
    readOnly: info.annotations?.readOnlyHint === true,
    permission: server.permission,
    kind: 'mcp',
    async execute(args, ctx): Promise<ToolOutcome> {
      // Set when the request goes out: a call refused before that (the server exited) was never sent.
      const onSend = () => trace.getSpan(ctx.spanContext)?.setAttribute(ATTR.mcpMethod, 'tools/call');
      try {
        return mcpOutcome(await connection.callTool(info.name, args, { signal: ctx.signal, onSend }));
      } catch (error) {
        const type = error instanceof AgentcheckError ? error.code.toLowerCase() : 'mcp_error';
        return { result: error instanceof Error ? error.message : String(error), isError: true, errorType: type };
      }
    },
  };
}

/**
 * The server's input schema as the tool's parameters. `$schema` is dropped (servers declare
 * draft 2020-12, which the harness's validator does not load); a schema it still cannot
 * compile becomes a plain object schema, since the server validates its own arguments anyway.
 * Standard formats are checked; a format the harness does not know is ignored, not refused.
 */
function toolParameters(inputSchema: McpToolInfo['inputSchema']): Record<string, unknown> {
  const { $schema: _ignored, ...schema } = inputSchema as Record<string, unknown>;
  return userSchemaProblem(schema, 'tool', { unknownKeywords: 'allow' }) ? { type: 'object' } : schema;
}
