/** Prefix of the names under which MCP servers' tools are offered (docs/mcp.md, MCP servers as toolsets). */
export const MCP_TOOL_PREFIX = 'mcp__';

/**
 * The name the model sees for a server's tool: `mcp__<server>__<tool>`. Characters model APIs
 * reject in tool names (anything but letters, digits, `_` and `-`) become `_`.
 */
export function mcpToolName(server: string, tool: string): string {
  return `${MCP_TOOL_PREFIX}${server}__${tool.replace(/[^a-zA-Z0-9_-]/g, '_')}`;
}
