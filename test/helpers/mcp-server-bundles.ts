import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const MCP_DIR = join(import.meta.dirname, '../engine/mcp');

/**
 * Where the stub MCP servers of the tests run from: each bundled with its SDK into one file. The
 * sources in test/engine/mcp import the MCP SDK (and zod) as dozens of ES modules, which cost a
 * server's start about twice the CPU of the bundle; the suite starts about 80 of them.
 */
export const SERVER_BUNDLES = join(import.meta.dirname, '../../node_modules/.cache/agentcheck-test-servers');

/** The stub servers that import the SDK, bundled by bundleTestServers (silent-mcp-server.mjs imports nothing and runs as it is). */
const BUNDLED = ['stub-mcp-server.mjs', 'names-mcp-server.mjs', 'listing-mcp-server.mjs', 'format-mcp-server.mjs'];

/** The path a stub server of test/engine/mcp runs from: its bundle, or its source when it needs none. */
export function testServer(name: string): string {
  return BUNDLED.includes(name) ? join(SERVER_BUNDLES, name) : join(MCP_DIR, name);
}

/**
 * Bundles the stub servers into SERVER_BUNDLES (vitest's globalSetup, once per test run). Written
 * under a name of this process's own and renamed into place, since worktrees sharing node_modules
 * may run their suites at once.
 */
export async function bundleTestServers(): Promise<void> {
  const { build } = await import('esbuild');
  const staging = join(SERVER_BUNDLES, `.staging-${process.pid}`);
  mkdirSync(staging, { recursive: true });
  await build({
    entryPoints: BUNDLED.map((name) => join(MCP_DIR, name)),
    outdir: staging,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'warning',
  });
  for (const name of BUNDLED) renameSync(join(staging, name), join(SERVER_BUNDLES, name));
  rmSync(staging, { recursive: true, force: true });
}
