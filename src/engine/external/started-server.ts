import { createServer } from 'node:net';
import { endProcessGroup, PIPE_GRACE_MS, RUN_TAG_VARIABLE, type RunProcesses } from '../tools/process/run-processes.js';
import { ExternalAgentError, STDERR_QUOTE, stderrTail } from './agent-output.js';
import { SERVER_PORT_VARIABLE } from './external-env.js';

/** How long a started server may take to answer its ready path when the build does not say. */
export const DEFAULT_START_TIMEOUT_MS = 30_000;
/** Kept of a started server's stderr, for the error when it fails to start. */
const MAX_STDERR_CHARS = 20_000;

/** A server started for one run (docs/external-agents.md, "Starting the server"). */
export interface StartedServer {
  port: number;
  /** Ends the server with its whole process group. */
  stop(): Promise<void>;
}

/** A free port on 127.0.0.1, as the OS hands one out. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Starts `argv` in its own process group with PORT set, and waits until `GET readyPath` answers
 * below 500. Fails (the group ended) when it exits first or is not ready within `timeoutMs`.
 */
export async function startServer(
  argv: readonly string[],
  options: { cwd: string; env: Record<string, string>; readyPath: string; timeoutMs: number; processes: RunProcesses; signal?: AbortSignal },
): Promise<StartedServer> {
  const port = await freePort();
  const [file, ...rest] = argv;
  const { execa } = await import('execa');
  const child = execa(file, rest, {
    cwd: options.cwd,
    env: { ...options.env, [SERVER_PORT_VARIABLE]: String(port), [RUN_TAG_VARIABLE]: options.processes.tag },
    extendEnv: false,
    shell: false,
    stdin: 'ignore',
    stdout: 'ignore',
    buffer: false,
    detached: true,
    cleanup: false,
    reject: false,
  });
  const pgid = child.pid;
  if (pgid !== undefined) options.processes.track(pgid);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-MAX_STDERR_CHARS);
  });
  const stderrClosed = new Promise<void>((resolve) => (child.stderr ? child.stderr.once('close', () => resolve()) : resolve()));
  // The server's own exit, not execa's promise: that one waits for stderr to close, which a child
  // that left the group (setsid) and inherited it holds open until it ends (docs/security.md).
  let exited = false;
  const exit = new Promise<string>((resolve) =>
    child.once('exit', (code, by) => {
      exited = true;
      resolve(by ? `killed by ${by}` : `code ${code}`);
    }),
  );
  void child.catch(() => undefined);
  // What the server wrote comes in up to PIPE_GRACE_MS after it exits; then the pipe is let go, so
  // a child still holding it keeps neither the run nor the process waiting (the run's sweep ends it).
  const releaseStderr = async () => {
    await Promise.race([stderrClosed, new Promise((resolve) => setTimeout(resolve, PIPE_GRACE_MS).unref())]);
    child.stderr?.destroy();
  };
  const stop = async () => {
    // The whole group, as commands and MCP servers are ended (SIGTERM, SIGKILL 2 s later).
    if (pgid !== undefined && !exited) {
      await endProcessGroup(pgid, { hold: true });
      await exit;
    }
    await releaseStderr();
  };
  const url = `http://127.0.0.1:${port}${options.readyPath}`;
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    if (exited) {
      const how = await exit;
      await releaseStderr();
      throw new ExternalAgentError(
        'EXTERNAL_SERVER_FAILED',
        `the server started by external.http.start (${file}) exited before it was ready (${how})${STDERR_QUOTE}${stderrTail(stderr)}`,
      );
    }
    if (options.signal?.aborted || Date.now() > deadline) {
      await stop();
      throw new ExternalAgentError(
        'EXTERNAL_SERVER_FAILED',
        `the server started by external.http.start (${file}) did not answer GET ${options.readyPath} on port ${port} within ${options.timeoutMs} ms${STDERR_QUOTE}${stderrTail(stderr)}`,
      );
    }
    try {
      // The server's own answer counts: a redirect (below 500) is not followed elsewhere.
      const response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (response.status < 500) return { port, stop };
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
