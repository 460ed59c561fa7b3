import { runProcess } from '../tools/process/run-process.js';
import { ExternalAgentError, parseAgentOutput, STDERR_QUOTE, stderrTail, type AgentOutput } from './agent-output.js';
import { resolveArgv } from './build-relative-argv.js';
import type { EngineRun } from './engine-run.js';
import { engineRedactor } from './external-secrets.js';

/** Cap of the agent's stdout and of its stderr. */
const MAX_OUTPUT_BYTES = 10 * 1024 * 1024;

/**
 * The command engine (docs/external-agents.md): starts `external.command` in the workspace, in
 * its own process group (ended whole on timeout or abort), writes `{messages, context, config}` to its
 * stdin and reads the answer from its stdout. A non-zero exit fails with the stderr tail. The
 * agent may print its environment: its secrets are scrubbed from all it says before it goes on.
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
  const redactor = engineRedactor(run);
  // Scrubbed whole before the tail is cut, so no secret is left half-quoted at the cut.
  const stderr = () => stderrTail(redactor.text(result.stderr));
  if (result.status === 'timeout')
    throw new ExternalAgentError('EXTERNAL_AGENT_TIMEOUT', redactor.text(`the external agent ${result.message}${STDERR_QUOTE}${stderr()}`));
  if (result.status !== 'exited' || result.exitCode !== 0) {
    throw new ExternalAgentError('EXTERNAL_AGENT_FAILED', redactor.text(`the external agent failed: ${result.message}${STDERR_QUOTE}${stderr()}`));
  }
  return redactor.value(parseAgentOutput(result.stdout, false));
}
