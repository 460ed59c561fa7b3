import { describeValue } from '../../config/describe-value.js';
import { McpServerPool } from './mcp-server-pool.js';

/**
 * Why `value` cannot be a run's `mcpServers` option, or null: only an McpServerPool opens and
 * shares servers (an object with close() alone failed in the run as "pool.open is not a
 * function"). Said by invoke, resume, testRun and runSuite alike, with or without MCP servers.
 */
export function mcpServersProblem(value: unknown): string | null {
  return value instanceof McpServerPool ? null : `expected an McpServerPool, got ${describeValue(value)}`;
}
