import { toolServer } from '../spans/conventions.js';
import { callError, returnedWithoutError } from './call-error.js';
import type { ErrorToken } from './error-tokens.js';
import type { ApprovalDecision, ApprovalRecord, ToolCall } from './evidence-types.js';

/** One row of the test_run digest (docs/verdicts.md, The test_run verdict). */
export interface ToolDigest {
  name: string;
  called: number;
  /** Calls that returned a result without error. */
  returned: number;
  /** Calls that failed or whose result holds an error token. */
  errors: number;
  /**
   * How many of the calls went to an MCP server's tool of this name, by server (`{notes: 2}`; the
   * rest called the agent's own tool): `name` has no server, and two servers' tools are two tools
   * (docs/mcp.md). Absent when no call did.
   */
  servers?: Record<string, number>;
}

/** Per-tool counts in first-call order, over the calls the digest sees (model and flow-step calls). */
export function toolDigest(calls: readonly ToolCall[], tokens: readonly ErrorToken[]): ToolDigest[] {
  const rows = new Map<string, ToolDigest>();
  // A Map, not an object: a server may be named `__proto__`.
  const servers = new Map<ToolDigest, Map<string, number>>();
  for (const call of calls) {
    let row = rows.get(call.name);
    if (!row) rows.set(call.name, (row = { name: call.name, called: 0, returned: 0, errors: 0 }));
    row.called++;
    if (callError(call, tokens)) row.errors++;
    else if (returnedWithoutError(call, tokens)) row.returned++;
    const server = toolServer(call.raw_name);
    if (server === undefined) continue;
    let counts = servers.get(row);
    if (!counts) servers.set(row, (counts = new Map()));
    counts.set(server, (counts.get(server) ?? 0) + 1);
  }
  for (const [row, counts] of servers) row.servers = Object.fromEntries(counts);
  return [...rows.values()];
}

/**
 * A digest row's calls by the called tool's full name, as a call's `raw_name` gives it: those its
 * `servers` counts as `mcp__<server>__<name>`, the rest under its name (the agent's own tool, or
 * any tool of a report written before the digest named servers). A server-prefixed expected name
 * (toolNameMatcher) then finds its server's calls in a digest as it finds them among the calls.
 */
export function digestCallsByFullName(tool: Readonly<Pick<ToolDigest, 'name' | 'called' | 'servers'>>): Array<[fullName: string, calls: number]> {
  const servers = Object.entries(tool.servers ?? {});
  const toServers = servers.reduce((sum, [, n]) => sum + n, 0);
  return [...servers.map(([server, n]): [string, number] => [`mcp__${server}__${tool.name}`, n]), [tool.name, tool.called - toServers]];
}

/** The approvals asked during the run, in order. */
export function approvalDigest(approvals: readonly ApprovalRecord[]): Array<{ tool: string; decision: ApprovalDecision }> {
  return approvals.map(({ tool, decision }) => ({ tool, decision }));
}
