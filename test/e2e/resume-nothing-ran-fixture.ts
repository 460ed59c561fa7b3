import { join } from 'node:path';
import { expect } from 'vitest';
import { bareMcpServer } from '../helpers/bare-mcp-server.js';
import { tempDir } from '../helpers/temp-dir.js';
import { runCli } from './cli.js';

// A stdio MCP server offering the tools named in tools.txt beside it, read when it starts: what it
// offers can change between a pause and its resume. Without the SDK (bareMcpServer): the server's
// protocol is not what these tests are about, and nearly every run here starts one.
export const SERVER = bareMcpServer('kv', "readFileSync(new URL('./tools.txt', import.meta.url), 'utf8').split('\\n').filter(Boolean)");
/**
 * A server that never answers its start: it writes its pid to `started` beside it and waits. Only
 * the run's time limit or an interrupt ends a run that starts it, whatever the machine's speed
 * (its start_timeout_ms, 30 s by default, is always later than the short limits the tests give).
 */
export const NEVER_ANSWERS = `import { writeFileSync } from 'node:fs';
writeFileSync(new URL('./started', import.meta.url), String(process.pid));
setInterval(() => {}, 60_000);
`;
export const AGENT = `id: rsbot
agent:
  name: RS bot
  llm: {provider: scripted, model: s}
  permissions: {mode: allow_reads}
  tools: [{name: finish, description: Finish., parameters: {type: object}, returns: {done: true}, read_only: true}]
  mcps: [{name: kv, command: [${JSON.stringify(process.execPath)}, kv.mjs]}]
`;
export const SCRIPT = [{ tool_calls: [{ name: 'mcp__kv__put_item', args: {} }] }, { tool_calls: [{ name: 'finish', args: {} }] }, { text: 'done' }];
export const BOTH = 'put_item\ndel_item\n';

/**
 * A project whose run pauses at put_item, its approvals naming del_item (checked when the server
 * lists its tools), in a folder `make` makes: the test's own by default (tempDir).
 */
export function project(make: (files: Record<string, string>) => string = tempDir): string {
  return make({
    'agent.yaml': AGENT,
    'kv.mjs': SERVER,
    'tools.txt': BOTH,
    'script.yaml': SCRIPT.map((entry) => `- ${JSON.stringify(entry)}`).join('\n'),
    'approvals.yaml': 'tools: {del_item: deny}\n',
  });
}

/** The project's run as a test_run / testRun request (the same run test-run makes with --approvals). */
export function runRequest(dir: string): Record<string, unknown> {
  return {
    agent: join(dir, 'agent.yaml'),
    inputs: { messages: [{ role: 'user', content: 'go' }] },
    script: SCRIPT,
    approvals: { tools: { del_item: 'deny' } },
    expectations: { terminal_tool: 'finish' },
  };
}

/**
 * The printed result of `agentcheck test-run` in the project, which pauses at put_item. `run` is
 * runCli by default, or runMainFull where the pause only sets up the resumes a test is about.
 */
export async function pauseWithCli(
  dir: string,
  run: (args: string[], cwd: string) => Promise<{ stdout: string; all: string }> = runCli,
): Promise<{ run_id: string; tools: unknown; approvals: unknown }> {
  const result = await run(
    ['test-run', '--agent', 'agent.yaml', '--message', 'go', '--script', 'script.yaml', '--approvals', 'approvals.yaml', '--terminal-tool', 'finish', '--json'],
    dir,
  );
  const paused = JSON.parse(result.stdout);
  expect(paused.stop_reason, result.all).toBe('paused');
  return paused;
}
