import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';

/** The built CLI: `npm test` builds it first (pretest). */
export const CLI = join(import.meta.dirname, '../../dist/bin/agentcheck.js');
export const ROOT = join(import.meta.dirname, '../..');

/** Runs the real CLI in `cwd`; never rejects, so tests assert on exit codes. */
export function runCli(
  args: string[],
  cwd = ROOT,
  env: Record<string, string> = {},
): ResultPromise<{ reject: false; cwd: string; env: Record<string, string>; all: true }> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run "npm run build" first (npm test does it)`);
  return execa('node', [CLI, ...args], { reject: false, cwd, env: { CI: 'true', ...env }, all: true });
}

/**
 * runCli with no file of the process larger than `blocks` KB (`ulimit -f`): a write past it fails
 * with EFBIG (Node ignores SIGXFSZ), as a full disk fails one with ENOSPC. Linux and macOS (bash).
 */
export function runCliWithFileLimit(blocks: number, args: string[], cwd: string) {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run "npm run build" first (npm test does it)`);
  return execa('bash', ['-c', 'ulimit -f "$1" && shift && exec node "$@"', 'bash', String(blocks), CLI, ...args], {
    reject: false,
    cwd,
    env: { CI: 'true' },
  });
}

/** A scripted agent build with a few fixed-result tools, as YAML. */
export const AGENT_YAML = `id: e2e-bot
agent:
  name: E2E bot
  llm: {provider: scripted, model: e2e}
  tools:
    - {name: lookup, description: Look up., read_only: true, parameters: {type: object, properties: {id: {type: string}}}, returns: {status: ok}}
    - {name: finish, description: Finish., parameters: {type: object}, returns: {done: true}}
`;

/** A scenario calling lookup then finish; `extra` is appended YAML at scenario level. */
export function passingScenario(name: string, extra = ''): string {
  return `name: ${name}
agent: agent.yaml
inputs: {messages: [{role: user, content: go}]}
model:
  script:
    - tool_calls: [{name: lookup, args: {id: "1"}}]
    - tool_calls: [{name: finish, args: {}}]
    - text: done
expect:
  terminal_tool: finish
  checks:
    - tool_called: {tool: lookup, args: {id: "1"}}
${extra}`;
}
