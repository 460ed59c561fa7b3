import type { AgentBuild, McpServerSpec } from '../revision/types.js';

/** One `mcps` entry of a run and the names of the tools it offers (the server's own names). */
export interface ListedMcpServer {
  server: McpServerSpec;
  tools: readonly string[];
  /** The input schema of each tool that closes its arguments (`additionalProperties: false`), by the server's name for it. */
  closedParameters?: ReadonlyMap<string, object>;
}

/** Where withListedParameters puts a server's closedParameters on its spec: a key no file can write. */
export const LISTED_PARAMETERS = Symbol('agentcheck.listedParameters');

/** Marks a server spec this run did not start (another variant's, started another way): its tools' parameters cannot be known here. */
export const NOT_LISTED = Symbol('agentcheck.notListed');

/**
 * withListedTools, and each server the run started (with or without a `tools` list) given the
 * input schemas its tools close, so a check's argument names are held to them once it runs; a
 * server it did not start is marked NOT_LISTED, its tools' arguments left to the runs that start
 * it (build-tools.ts reads both; docs/formats.md, "Names a scenario uses").
 */
export function withListedParameters(build: AgentBuild, listed: readonly ListedMcpServer[]): AgentBuild {
  const named = withListedTools(build, listed);
  const servers = named.agent?.mcps;
  if (!named.agent || !servers?.length) return named;
  const mcps = servers.map((server) => {
    const same = listed.find((entry) => launchKey(entry.server) === launchKey(server));
    if (!same) return { ...server, [NOT_LISTED]: true };
    return same.closedParameters ? { ...server, [LISTED_PARAMETERS]: same.closedParameters } : server;
  });
  return { ...named, agent: { ...named.agent, mcps } };
}

/**
 * `build` with each server that has no `tools` list given the tools it offers, as if listed
 * there, so the checks made at load hold names to them (docs/mcp.md): a server launched as one
 * of `listed` offers what that one listed; another (a variant's server started differently, not
 * started by this run) is taken to offer nothing, since what it offers cannot be known here.
 * `build` itself when it has no such server.
 */
export function withListedTools(build: AgentBuild, listed: readonly ListedMcpServer[]): AgentBuild {
  const servers = build.agent?.mcps;
  if (!build.agent || !servers?.some((server) => !server.tools)) return build;
  const mcps = servers.map((server) => {
    if (server.tools) return server;
    const same = listed.find((entry) => launchKey(entry.server) === launchKey(server));
    return { ...server, tools: [...(same?.tools ?? [])] };
  });
  return { ...build, agent: { ...build.agent, mcps } };
}

/** What decides which tools a server lists: the same key, the same server (a variant may start another). */
function launchKey(server: McpServerSpec): string {
  return JSON.stringify([server.name, server.command, server.url, server.headers, server.env_allow]);
}
