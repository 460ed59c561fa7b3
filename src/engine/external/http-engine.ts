import { describeFetchError } from '../fetch-error.js';
import { AgentcheckError } from '../../config/errors.js';
import { mergedDelta } from '../revision/merged-delta.js';
import type { Delta, ExternalHttpSpec } from '../revision/types.js';
import { PORT_PLACEHOLDER } from '../revision/validate-external.js';
import { fillEnvHeaders } from '../template/env-headers.js';
import { ExternalAgentError, parseAgentOutput, type AgentOutput } from './agent-output.js';
import { resolveArgv } from './build-relative-argv.js';
import type { EngineRun } from './engine-run.js';
import { engineRedactor } from './external-secrets.js';
import { redirectNote } from './redirect-note.js';
import { DEFAULT_START_TIMEOUT_MS, startServer, type StartedServer } from './started-server.js';

/**
 * The http engine (docs/external-agents.md): POSTs `{messages, context, config, delta, deltas}` to
 * `external.http.url` (after starting `http.start` when given) and reads `{output, trace_id?}`.
 */
export async function runHttpEngine(run: EngineRun): Promise<AgentOutput> {
  const http = run.external.http as ExternalHttpSpec;
  const headers = envHeaders(http.headers ?? {}, run.sourceEnv);
  const redactor = engineRedactor(run);
  let server: StartedServer | undefined;
  try {
    // Before a server starts: deltas that cannot be sent as one error the turn at once.
    const delta = mergedDelta(run.builds.base, run.builds.ran, run.deltas);
    if (http.start) {
      server = await startServer(resolveArgv(http.start.command, run.buildDir), {
        cwd: run.cwd,
        env: run.env,
        readyPath: http.start.ready_path ?? '/',
        timeoutMs: http.start.timeout_ms ?? DEFAULT_START_TIMEOUT_MS,
        processes: run.processes,
        signal: run.signal,
      });
    }
    const url = server ? http.url.replaceAll(PORT_PLACEHOLDER, String(server.port)) : http.url;
    const answer = redactor.value(await post(url, headers, delta, run));
    // A server exports its spans after it answers: it is stopped once they have arrived (or the wait is over).
    if (server && !run.signal?.aborted) await run.beforeStop?.();
    return answer;
  } catch (error) {
    // A server may quote the credentials it was sent, or its environment: none of them leaves in an error.
    if (error instanceof AgentcheckError) throw new ExternalAgentError(error.code, redactor.text(error.message));
    throw new ExternalAgentError('EXTERNAL_AGENT_FAILED', redactor.text((error as Error).message));
  } finally {
    await server?.stop();
  }
}

async function post(url: string, headers: Record<string, string>, delta: Delta | null, run: EngineRun): Promise<AgentOutput> {
  const timeout = AbortSignal.timeout(run.timeoutMs);
  const signal = run.signal ? AbortSignal.any([timeout, run.signal]) : timeout;
  const body = {
    messages: run.input.messages,
    context: run.input.context ?? {},
    config: run.external.config ?? {},
    delta,
    deltas: run.deltas,
  };
  let response: Response;
  let text: string;
  try {
    // A redirect is an answer like any non-2xx: fetch would follow it as a GET without the body.
    // The agent under test runs for real: its invoke is never mocked or recorded (only the model
    // calls it makes through the bridge are), so not the engine's fetch.
    response = await globalThis.fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      redirect: 'manual',
      signal,
    });
    text = await response.text();
  } catch (error) {
    if (timeout.aborted) throw new ExternalAgentError('EXTERNAL_AGENT_TIMEOUT', `POST ${url} got no answer within ${run.timeoutMs} ms (external.timeout_ms)`);
    throw new ExternalAgentError('EXTERNAL_AGENT_FAILED', `POST ${url} failed: ${describeFetchError(error)}`);
  }
  if (!response.ok)
    throw new ExternalAgentError(
      'EXTERNAL_AGENT_FAILED',
      `POST ${url} answered HTTP ${response.status}${redirectNote(response, url)}: ${text.slice(0, 2_000)}`,
    );
  return parseAgentOutput(text, true, `the answer of POST ${url}`);
}

/**
 * Header values with `{{ env.NAME }}` filled from agentcheck's environment; an unset variable is
 * TEMPLATE_UNDEFINED, a filled value fetch would refuse EXTERNAL_AGENT_FAILED (naming the header).
 */
export function envHeaders(headers: Record<string, string>, env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  return fillEnvHeaders(headers, env, {
    code: 'TEMPLATE_UNDEFINED',
    unsendableCode: 'EXTERNAL_AGENT_FAILED',
    where: (header) => `external.http.headers.${header}`,
  });
}
