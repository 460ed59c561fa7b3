import { join } from 'node:path';
import type { McpServerSpec, Revision } from '../../../src/engine/revision/types.js';
import { testServer } from '../../helpers/mcp-server-bundles.js';
import { build } from '../../helpers/run-agent.js';

/** The published filesystem MCP server (a dev dependency). */
export const FS_SERVER = join(import.meta.dirname, '../../../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
/** The stub server of these tests: echo, fail, hang, crash, env. */
export const STUB_SERVER = testServer('stub-mcp-server.mjs');
/** A server that never answers initialize (its pid and stop events go to files: see the script). */
export const SILENT_SERVER = testServer('silent-mcp-server.mjs');
/** A server offering one tool per name given after it on its command line. */
export const NAMES_SERVER = testServer('names-mcp-server.mjs');
/** A server listing the tools given as JSON on its command line, as they are (malformed ones included). */
export const LISTING_SERVER = testServer('listing-mcp-server.mjs');
/** A server whose tool's schemas use string formats. */
export const FORMAT_SERVER = testServer('format-mcp-server.mjs');

/** argv that runs a script with this Node. */
export function nodeArgv(script: string, ...args: string[]): string[] {
  return [process.execPath, script, ...args];
}

/** A scripted build whose only tools come from the given MCP servers. */
export function mcpBuild(mcps: McpServerSpec[], agent: Record<string, unknown> = {}): Revision {
  return build({ llm: { provider: 'scripted', model: 'mcp-script' }, max_turns: 6, mcps, ...agent });
}
