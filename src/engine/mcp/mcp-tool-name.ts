/** Prefix of the names under which MCP servers' tools are offered (docs/mcp.md, MCP servers as toolsets). */
export const MCP_TOOL_PREFIX = 'mcp__';

/** The longest tool name: model APIs refuse longer ones (OpenAI), and the build's own tools are held to it (docs/formats.md, Tools). */
export const MAX_TOOL_NAME_LENGTH = 64;

/**
 * The name the model sees for a server's tool: `mcp__<server>__<tool>`. Characters model APIs
 * reject in tool names (anything but letters, digits, `_` and `-`) become `_`.
 */
export function mcpToolName(server: string, tool: string): string {
  return `${MCP_TOOL_PREFIX}${server}__${tool.replace(/[^a-zA-Z0-9_-]/g, '_')}`;
}

/** One server's tool about to be offered. */
export interface OfferedMcpTool {
  server: string;
  tool: string;
}

/**
 * Why these tools cannot be offered under their mapped names, per server: two that map to the
 * same name (`a.b` and `a_b`), or a name over 64 characters. Empty when all of them can.
 */
export function offeredNameProblems(tools: readonly OfferedMcpTool[]): Map<string, string[]> {
  const problems = new Map<string, string[]>();
  const add = (server: string, problem: string) => problems.set(server, [...(problems.get(server) ?? []), problem]);
  const byName = new Map<string, OfferedMcpTool[]>();
  for (const entry of tools) {
    const name = mcpToolName(entry.server, entry.tool);
    byName.set(name, [...(byName.get(name) ?? []), entry]);
    if (name.length > MAX_TOOL_NAME_LENGTH) {
      add(
        entry.server,
        `its tool "${entry.tool}" would be offered as "${name}", ${name.length} characters (tool names are at most ${MAX_TOOL_NAME_LENGTH}); leave it out with agent.mcps[name=${entry.server}].tools, or shorten the server's name`,
      );
    }
  }
  for (const [name, clash] of byName) {
    if (clash.length < 2) continue;
    const servers = [...new Set(clash.map((entry) => entry.server))];
    const which =
      servers.length === 1
        ? `its tools ${quoted(clash.map((entry) => entry.tool))}`
        : clash.map((entry) => `"${entry.tool}" of "${entry.server}"`).join(' and ');
    const filters = servers.map((server) => `agent.mcps[name=${server}].tools`).join(' or ');
    add(
      servers[0],
      `${which} would ${clash.length === 2 ? 'both' : 'all'} be offered as "${name}" (characters other than letters, digits, _ and - become _); offer one of them only, with ${filters}`,
    );
  }
  return problems;
}

function quoted(names: readonly string[]): string {
  const all = names.map((name) => `"${name}"`);
  return all.length === 2 ? all.join(' and ') : `${all.slice(0, -1).join(', ')} and ${all.at(-1)}`;
}
