import { dirname } from 'node:path';
import { RunError } from '../../config/errors.js';
import type { DeltaRevision } from '../revision/delta.js';
import type { McpServerSpec, Revision } from '../revision/types.js';
import { fillEnvHeaders } from '../template/env-headers.js';
import { scrubbedEnv } from '../tools/process/run-process.js';
import { insideRunEnv } from '../inside-run.js';
import type { Tool } from '../tools/tool.js';
import type { Tool as McpToolInfo } from '@modelcontextprotocol/sdk/types.js';
import type { McpLaunch } from './mcp-connection.js';
import type { McpToolListing } from './mcp-tool-listing.js';
import { quoteCapped } from '../../config/cap-text.js';
import type { ListedMcpServer } from './listed-tools.js';
import { liveFetch } from './live-fetch.js';
import { McpServerPool } from './mcp-server-pool.js';
import { createMcpTool } from './mcp-tool.js';
import { offeredNameProblems, type OfferedMcpTool } from './mcp-tool-name.js';
import { buildAgent } from '../revision/build-agent.js';
import { throwIfRunAborted } from '../run-aborted.js';

/** Per-call and start-up limit when an `mcps` entry sets none (timeout_ms, start_timeout_ms). */
export const DEFAULT_MCP_TIMEOUT_MS = 30_000;

/** The MCP tools of one run and how to release what the run alone started. */
export interface McpSession {
  tools: Tool[];
  /** Each server of the build and the tools it offers, by the server's own names. */
  listed: ListedMcpServer[];
  close(): Promise<void>;
}

const NO_SERVERS: McpSession = { tools: [], listed: [], close: async () => undefined };

/**
 * Starts (or reuses, from `shared`) the servers of the build's `agent.mcps` and returns their
 * tools as `mcp__<server>__<tool>`, only the allow-listed ones when `tools` is given. Without
 * a shared pool the servers belong to this run and close() stops them. Throws RunError when a
 * server cannot start or lacks an allow-listed tool.
 */
export async function openMcpSession(
  revision: Revision | DeltaRevision,
  shared: McpServerPool | undefined,
  env: Readonly<Record<string, string | undefined>>,
  signal?: AbortSignal,
): Promise<McpSession> {
  const servers = buildAgent(revision.build).mcps ?? [];
  if (!servers.length) return NO_SERVERS;
  // A run's own servers stop starting when the run is aborted (its time limit); a suite's shared
  // ones go on starting for the other runs, and this run stops waiting for them.
  const own = shared ? undefined : new McpServerPool(signal);
  const pool = shared ?? (own as McpServerPool);
  // Relative paths in argv are the server's business: it runs in the agent file's folder.
  const cwd = dirname(revision.source);
  try {
    const connections = await untilAborted(Promise.all(servers.map((server) => pool.open(launchOf(server, cwd, env)))), signal);
    const listings = connections.map((connection) => connection.listing);
    const picked = servers.map((server, index) => pickTools(server, listings[index].names));
    checkMalformed(servers.map((server, index) => ({ server, listing: listings[index], picked: picked[index] })));
    checkOfferedNames(servers.flatMap((server, index) => picked[index].map((tool) => ({ server: server.name, tool }))));
    const tools = servers.flatMap((server, index) =>
      picked[index].map((name) =>
        createMcpTool(
          server,
          listings[index].tools.find((tool) => tool.name === name)!,
          connections[index],
        ),
      ),
    );
    // What each server offers, not what this build's allow list picked: another variant's build
    // with the same server and no list offers all of it (listed-tools.ts).
    const listed = servers.map((server, index) => ({
      server,
      tools: listings[index].tools.map((tool) => tool.name),
      closedParameters: closedParameters(listings[index].tools),
    }));
    return { tools, listed, close: async () => own?.close() };
  } catch (error) {
    await own?.close();
    throw error;
  }
}

/**
 * The launch of one `mcps` entry. A stdio server's env is PATH plus env_allow plus the
 * inside-a-run marker; a url server's headers get their `{{ env.NAME }}` values from `env`.
 */
function launchOf(server: McpServerSpec, cwd: string, env: Readonly<Record<string, string | undefined>>): McpLaunch {
  const limits = { timeoutMs: server.timeout_ms ?? DEFAULT_MCP_TIMEOUT_MS, startTimeoutMs: server.start_timeout_ms ?? DEFAULT_MCP_TIMEOUT_MS };
  if (server.url !== undefined) return { name: server.name, url: server.url, headers: resolveHeaders(server, env), cwd, env: {}, fetch: liveFetch, ...limits };
  return {
    name: server.name,
    command: server.command,
    cwd,
    env: insideRunEnv(scrubbedEnv(env, server.env_allow ?? [])),
    ...limits,
  };
}

/** Header values with `{{ env.NAME }}` filled from the environment; an unset variable fails the start. */
function resolveHeaders(server: McpServerSpec, env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  return fillEnvHeaders(server.headers ?? {}, env, {
    code: 'MCP_START_FAILED',
    where: (header) => `MCP server "${server.name}": agent.mcps[name=${server.name}].headers.${header}`,
  });
}

/** The allow list in the server's order, or every tool; an allow-listed tool it lacks is an error. */
function pickTools(server: McpServerSpec, offered: readonly string[]): string[] {
  if (!server.tools) return [...offered];
  const missing = server.tools.filter((name) => !offered.includes(name));
  if (missing.length) {
    throw new RunError(
      'MCP_TOOL_NOT_FOUND',
      `agent.mcps[name=${server.name}].tools lists ${missing.map((name) => `"${name}"`).join(', ')}, which the server does not offer; it offers: ${offered.join(', ') || 'no tools'}`,
    );
  }
  return offered.filter((name) => server.tools!.includes(name));
}

/**
 * The malformed tools/list entries (mcp-tool-listing.ts) a server would offer: those its allow
 * list names, or every one without a list (a nameless entry included). Throws MCP_START_FAILED
 * naming each with what is wrong; an entry the build leaves out does not matter (docs/mcp.md, Tools).
 */
function checkMalformed(servers: ReadonlyArray<{ server: McpServerSpec; listing: McpToolListing; picked: readonly string[] }>): void {
  const problems = servers.flatMap(({ server, listing, picked }) => {
    const offered = listing.malformed.filter((entry) => (server.tools ? entry.name !== undefined && picked.includes(entry.name) : true));
    if (!offered.length) return [];
    const fix = server.tools
      ? `leave ${offered.length > 1 ? 'them' : 'it'} out of agent.mcps[name=${server.name}].tools`
      : `list the tools to offer with agent.mcps[name=${server.name}].tools`;
    const each = offered.map(
      (entry) =>
        `${entry.name === undefined ? `its tools/list entry [${entry.index}] (no name)` : `its tool ${quoteCapped(entry.name)}`} is not a valid MCP tool (${entry.problem})`,
    );
    return [`MCP server "${server.name}" could not start: ${each.join('; ')}; ${fix}`];
  });
  if (problems.length) throw new RunError('MCP_START_FAILED', problems.join('. '));
}

/**
 * The tools about to be offered, held to the rules of tool names once mapped to
 * `mcp__<server>__<tool>` (unique, at most 64 characters); throws MCP_START_FAILED naming them.
 */
function checkOfferedNames(tools: readonly OfferedMcpTool[]): void {
  const problems = offeredNameProblems(tools);
  if (!problems.size) return;
  const message = [...problems].map(([server, list]) => `MCP server "${server}" could not start: ${list.join('; ')}`).join('. ');
  throw new RunError('MCP_START_FAILED', message);
}

/** `promise`, or RUN_ABORTED as soon as `signal` aborts (the promise goes on, unobserved). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  // A run aborted before (or while) its servers start stops waiting for them: their starts are
  // cut short and reject, which is expected, never an unhandled rejection that ends the process.
  promise.catch(() => undefined);
  throwIfRunAborted(signal);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      try {
        throwIfRunAborted(signal);
      } catch (error) {
        reject(error);
      }
    };
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/**
 * The input schemas that close their tool's arguments: `additionalProperties: false` written out
 * (JSON Schema leaves other keys open without it, and the server validates its own arguments).
 */
function closedParameters(tools: readonly McpToolInfo[]): ReadonlyMap<string, object> {
  return new Map(tools.flatMap((tool) => (tool.inputSchema.additionalProperties === false ? [[tool.name, tool.inputSchema as object] as const] : [])));
}
