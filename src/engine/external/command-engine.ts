import { runProcess } from '../tools/process/run-process.js';
import { ExternalAgentError, parseAgentOutput, stderrTail, type AgentOutput } from './agent-output.js';
import { resolveArgv } from './agent-env.js';
import type { EngineRun } from './engine-run.js';

/** Cap of the agent's stdout and of its stderr. */
const MAX_OUTPUT_BYTES = 10 * 1024 * 1024;

/**
 * The command engine (docs/external-agents.md): starts `external.command` in the workspace, in
 * its own process group (ended whole on timeout or abort), writes `{messages, context, config}` to its
 * stdin and reads the answer from its stdout. A non-zero exit fails with the stderr tail.
 */
export async function runCommandEngine(run: EngineRun): Promise<AgentOutput> {
  const argv = resolveArgv(run.external.command ?? [], run.buildDir);
  const result = await runProcess(argv, {
    cwd: run.cwd,
    env: run.env,
    timeoutMs: run.timeoutMs,
    maxOutputBytes: MAX_OUTPUT_BYTES,
    signal: run.signal,
    processes: run.processes,
    input: `${JSON.stringify({ messages: run.input.messages, context: run.input.context ?? {}, config: run.external.config ?? {} })}\n`,
  });
  if (result.status === 'timeout') throw new ExternalAgentError('EXTERNAL_AGENT_TIMEOUT', `the external agent ${result.message}; stderr: ${stderrTail(result.stderr)}`);
  if (result.status !== 'exited' || result.exitCode !== 0) {
    throw new ExternalAgentError('EXTERNAL_AGENT_FAILED', `the external agent failed: ${result.message}; stderr: ${stderrTail(result.stderr)}`);
  }
  return parseAgentOutput(result.stdout, false);
}
