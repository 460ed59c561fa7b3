import { join } from 'node:path';
import { expect } from 'vitest';
import type { MainResult } from '../helpers/run-main.js';
import { ROOT, runCli } from './cli.js';

export const AGENT = join(ROOT, 'fixtures/agents/coding-agent.yaml');
export const WORKSPACE = join(ROOT, 'fixtures/workspaces/coding');
/** Writes CHANGELOG.md (write_file needs approval), then ends. */
export const SCRIPT = `- tool_calls: [{name: write_file, args: {path: CHANGELOG.md, content: "- fixed add()\\n"}}]
- text: Done.
`;
export const base = [
  'test-run',
  '--agent',
  AGENT,
  '--workspace',
  WORKSPACE,
  '--message',
  'Write the changelog',
  '--script',
  'script.yaml',
  '--terminal-tool',
  'write_file',
];

/**
 * test-run that pauses at the gated write; returns the run_id. `run` is runCli by default, or
 * runMainFull for a test whose point is what comes after the pause, not the process.
 */
export async function pause(
  dir: string,
  spans: string[],
  run: (args: string[], cwd: string) => Promise<Pick<MainResult, 'stdout' | 'all'> & { exitCode?: number }> = runCli,
): Promise<string> {
  const result = await run([...base, ...spans, '--json'], dir);
  expect(result.exitCode, result.all).toBe(1);
  const printed = JSON.parse(result.stdout);
  expect(printed).toMatchObject({ stop_reason: 'paused', approvals: [{ tool: 'write_file', decision: 'pending' }] });
  expect(printed.run_id).toMatch(/^[0-9a-f]{32}$/);
  return printed.run_id;
}
