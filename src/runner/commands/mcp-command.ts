import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createAgentcheckMcpServer } from '../mcp/agentcheck-mcp-server.js';
import { PausedRunStore } from '../resume/paused-run-store.js';
import { RunHistory } from '../mcp/run-history.js';
import { CallsInFlight } from '../mcp/calls-in-flight.js';
import { ABORT_GRACE_MS } from '../suite/timeouts.js';
import { EXIT, type CommandIO } from './cli-io.js';

/**
 * `agentcheck mcp`: serves test_run, resume_run, query_spans and validate over stdio until the client
 * closes stdin. stdout carries the protocol only; notes go to stderr.
 */
export async function mcpCommand(io: CommandIO, stdin: Readable = process.stdin): Promise<number> {
  const paused = new PausedRunStore();
  const calls = new CallsInFlight();
  const server = createAgentcheckMcpServer({ cwd: io.cwd, env: io.env, history: new RunHistory(), paused, calls });
  const transport = new StdioServerTransport(stdin, io.stdout as Writable);
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
  });
  // The SDK's stdio transport does not notice the end of stdin; the client closing it is the end.
  stdin.once('end', () => void server.close());
  // A client or process manager that stops the server with a signal ends it the same way: the
  // running test_runs are aborted and the paused runs' workspaces removed (docs/mcp.md).
  const stop = () => void server.close();
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    await server.connect(transport);
    io.stderr.write(`agentcheck mcp: serving test_run, resume_run, query_spans, validate on stdio (folder ${io.cwd})\n`);
    await closed;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    // The runs under way were aborted by the close: each removes its workspace as it ends (one
    // that ends paused joins the store, disposed next).
    await calls.settled(ABORT_GRACE_MS);
    await paused.disposeAll();
  }
  return EXIT.ok;
}
