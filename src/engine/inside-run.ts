/**
 * Set in the environment of every process a run starts for its tools (MCP servers, command tools,
 * run_command). A process that sees it is inside a run, so `agentcheck test-run` or `agentcheck
 * mcp`'s test_run started there refuses to run: runs nest at most one level deep, across
 * processes too (docs/mcp.md, The recursion guard).
 */
export const INSIDE_RUN_ENV = 'AGENTCHECK_INSIDE_RUN';

/** `env` with the recursion guard's marker added. */
export function insideRunEnv(env: Readonly<Record<string, string>>): Record<string, string> {
  return { ...env, [INSIDE_RUN_ENV]: '1' };
}
