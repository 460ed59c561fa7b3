import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerQuerySpansTool } from './query-spans-tool.js';
import { registerResumeRunTool } from './resume-run-tool.js';
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
export function createAgentcheckMcpServer(context: McpServerContext): McpServer {
  const server = new McpServer({ name: 'agentcheck', version: '0.1.0' }, { instructions: INSTRUCTIONS });
  registerTestRunTool(server, context);
  registerResumeRunTool(server, context);
  registerQuerySpansTool(server, context);
  registerValidateTool(server, context);
  return server;
}
