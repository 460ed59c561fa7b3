import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { registerQuerySpansTool } from './query-spans-tool.js';
import { registerResumeRunTool } from './resume-run-tool.js';
import { SentArguments } from './sent-arguments.js';
import type { McpServerContext } from './server-context.js';
import { registerTestRunTool } from './test-run-tool.js';
import { registerValidateTool } from './validate-tool.js';

const INSTRUCTIONS = [
  'agentcheck tests agent builds.',
  'validate checks files; test_run runs a build once (with an optional in-memory delta and a scripted model) and returns a verdict;',
  'a run paused at an approval gate returns a run_id, and resume_run answers it (approve or deny) and continues it;',
  'query_spans shows the tool calls, arguments and results of those runs by trace_id.',
].join(' ');

/** The `agentcheck mcp` server: tools test_run, resume_run, query_spans and validate (docs/mcp.md). */
export function createAgentcheckMcpServer(context: Omit<McpServerContext, 'sent'>): McpServer {
  const shared: McpServerContext = { ...context, sent: new SentArguments() };
  const server = new WatchingMcpServer(shared.sent, { name: 'agentcheck', version: '0.1.0' }, { instructions: INSTRUCTIONS });
  registerTestRunTool(server, shared);
  registerResumeRunTool(server, shared);
  registerQuerySpansTool(server, shared);
  registerValidateTool(server, shared);
  return server;
}

/** An McpServer that keeps the arguments of its tool calls as sent (and refuses those its tools' schemas refuse), on whatever transport it is connected to. */
class WatchingMcpServer extends McpServer {
  constructor(
    private readonly sent: SentArguments,
    ...options: ConstructorParameters<typeof McpServer>
  ) {
    super(...options);
  }

  override async connect(transport: Transport): Promise<void> {
    this.sent.watch(transport);
    await super.connect(transport);
  }
}
