import { ownValue, setOwn } from '../../../config/own-key.js';
import { endProcessGroup, FORCE_KILL_AFTER_MS, PIPE_GRACE_MS, RUN_TAG_VARIABLE, type RunProcesses } from './run-processes.js';

/** How a process ended: exited on its own, or why it did not. */
export type ProcessStatus = 'exited' | 'timeout' | 'signal' | 'not_found' | 'canceled';

/**
 * The tool error type (`error.type` of its execute_tool span) of a process that did not exit on
 * its own: the same for `run_command` and for `command` tools (docs/security.md, Commands).
 */
export const PROCESS_ERROR_TYPES: Readonly<Record<Exclude<ProcessStatus, 'exited'>, string>> = {
  timeout: 'timeout',
  signal: 'signal',
  not_found: 'not_found',
  canceled: 'canceled',
};

/** Options for runProcess. The env given is the whole environment: nothing is inherited. */
export interface ProcessOptions {
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  /** Cap for stdout and for stderr, each; the rest is counted and replaced by a marker. */
  maxOutputBytes: number;
  signal?: AbortSignal;
  /** The run's processes: the command's group is tracked there and its env carries the run's tag. */
  processes?: RunProcesses;
  /** Text written to the process's stdin (then closed); without it stdin is closed from the start. */
  input?: string;
}

/** What a finished process left behind. */
export interface ProcessRun {
  status: ProcessStatus;
  /** The exit code when status is 'exited', else null. */
  exitCode: number | null;
  /** The signal that ended it (status 'signal' or 'timeout'). */
  signal?: string;
  stdout: string;
  stderr: string;
  /** One sentence on how it ended, for error messages. */
  message: string;
}

/**
 * Runs argv directly (execa, never a shell, so `;`, `$(...)` and backticks are inert text),
 * stdin closed (or fed `input`), with a scrubbed env, a timeout and capped output. The command leads its own
 * process group: a timeout or an abort ends the whole group (SIGTERM, then SIGKILL), and so does
 * the command's own exit, so a background child cannot hold the tool (or the run) open.
 * Never throws for a process that fails; the status says what happened.
 */
export async function runProcess(argv: readonly string[], options: ProcessOptions): Promise<ProcessRun> {
  const [file, ...rest] = argv;
  // Loaded on the first command: most runs never start a process, and execa costs ~60 ms to load.
  const { execa } = await import('execa');
  const env = options.processes ? { ...options.env, [RUN_TAG_VARIABLE]: options.processes.tag } : options.env;
  const subprocess = execa(file, rest, {
    cwd: options.cwd,
    env,
    extendEnv: false,
    shell: false,
    ...(options.input === undefined ? { stdin: 'ignore' as const } : { input: options.input }),
    stdout: capOutput(options.maxOutputBytes),
    stderr: capOutput(options.maxOutputBytes),
    stripFinalNewline: false,
    // Its own process group (and session), so the group can be signalled as a whole.
    detached: true,
    cleanup: false,
    reject: false,
  });
  const pgid = subprocess.pid;
  if (pgid !== undefined) options.processes?.track(pgid);
  let ended: 'timeout' | 'canceled' | undefined;
  let groupEnded = false;
  const endGroup = (why?: 'timeout' | 'canceled') => {
    if (pgid === undefined || groupEnded) return;
    groupEnded = true;
    if (why) ended = why;
    void endProcessGroup(pgid);
  };
  const timer = setTimeout(() => endGroup('timeout'), options.timeoutMs);
  const onAbort = () => endGroup('canceled');
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });
  // A child that left the group (setsid) may still hold stdout or stderr open: once the leader
  // is gone, reading stops after a grace period instead of waiting for that child to end. The
  // run's processes end it with the run (its env carries the run's tag).
  let pipesHeld: NodeJS.Timeout | undefined;
  const stopReading = () => {
    subprocess.stdout?.destroy();
    subprocess.stderr?.destroy();
  };
  // The leader is gone: what is left of its group are background children, ended with it.
  // A canceled run reads no further: its row must be made within the suite's grace after the
  // abort (docs/cli.md, --timeout), and the end-of-run sweep still ends the child.
  subprocess.once('exit', () => {
    endGroup();
    pipesHeld = setTimeout(stopReading, ended === 'canceled' ? 0 : PIPE_GRACE_MS);
    pipesHeld.unref();
  });
  let result;
  try {
    result = await subprocess;
  } finally {
    clearTimeout(timer);
    clearTimeout(pipesHeld);
    options.signal?.removeEventListener('abort', onAbort);
  }
  const stdout = String(result.stdout ?? '');
  const stderr = String(result.stderr ?? '');
  const signalName = result.signal ?? undefined;
  if (ended === 'timeout') {
    const message = `${file} timed out after ${options.timeoutMs} ms and ${howItStopped(signalName, result.exitCode)}`;
    return { status: 'timeout', exitCode: null, signal: signalName, stdout, stderr, message };
  }
  if (ended === 'canceled') {
    return { status: 'canceled', exitCode: null, signal: signalName, stdout, stderr, message: `${file} was canceled` };
  }
  if (signalName) {
    return { status: 'signal', exitCode: null, signal: signalName, stdout, stderr, message: `${file} was killed by ${signalName}` };
  }
  if (result.exitCode === undefined) {
    // execa's originalMessage holds the spawn error, e.g. "spawn foo ENOENT" or "... EACCES".
    const why = (result as { originalMessage?: string }).originalMessage ?? result.shortMessage;
    // A file that is there but not executable is a different fix from one that is missing.
    const hint = /EACCES/.test(String(why)) ? 'is it executable (chmod +x, or run it through its interpreter)?' : 'is it installed and on PATH?';
    return { status: 'not_found', exitCode: null, stdout, stderr, message: `${file} could not be started (${why}); ${hint}` };
  }
  return { status: 'exited', exitCode: result.exitCode, stdout, stderr, message: `${file} exited with code ${result.exitCode}` };
}

/**
 * How a timed-out process ended once its group was sent SIGTERM: it may exit by itself (handling
 * the signal), die of it, or be killed by the SIGKILL that follows when it is still running.
 */
function howItStopped(signalName: string | undefined, exitCode: number | undefined): string {
  if (signalName === 'SIGKILL') return `was killed (SIGKILL: it was still running ${FORCE_KILL_AFTER_MS / 1000} s after SIGTERM)`;
  if (signalName) return `was stopped (${signalName})`;
  return exitCode === undefined ? 'was stopped (SIGTERM)' : `was stopped: it exited with code ${exitCode} after SIGTERM`;
}

/**
 * The environment a tool process gets: PATH (from `source`, else the harness's own) plus only
 * the `allow` names present in `source`. API keys never pass unless allowed by name.
 */
export function scrubbedEnv(source: Readonly<Record<string, string | undefined>>, allow: readonly string[] = []): Record<string, string> {
  const env: Record<string, string> = {};
  const path = source.PATH ?? process.env.PATH;
  if (path !== undefined) env.PATH = path;
  for (const name of allow) {
    // Set variables only: `constructor` or `toString` is no variable unless the environment has one.
    const value = ownValue(source, name);
    if (value !== undefined) setOwn(env, name, value);
  }
  return env;
}

/**
 * An execa transform keeping the first `max` bytes and counting the rest. Unlike execa's
 * maxBuffer it does not kill the process, so the real exit code and the dropped size are known.
 * It cuts before a UTF-8 character, never inside one (no U+FFFD): a chunk's incomplete last
 * character waits for the next chunk, which the cut may drop whole.
 */
function capOutput(max: number) {
  let kept = 0;
  let dropped = 0;
  let cut = false;
  let pending: Uint8Array | null = null;
  return {
    binary: true,
    // execa types chunks as unknown; with `binary: true` they are Uint8Array.
    *transform(data: unknown): Generator<Uint8Array, void, void> {
      let chunk = data as Uint8Array;
      if (cut) {
        dropped += chunk.length;
        return;
      }
      if (pending) {
        chunk = Buffer.concat([pending, chunk]);
        pending = null;
      }
      const room = max - kept;
      if (chunk.length <= room) {
        const whole = completeLength(chunk);
        if (whole < chunk.length) pending = chunk.subarray(whole);
        kept += whole;
        if (whole > 0) yield chunk.subarray(0, whole);
        return;
      }
      cut = true;
      let end = Math.max(room, 0);
      while (end > 0 && (chunk[end] & 0xc0) === 0x80) end--;
      if (end > 0) {
        kept += end;
        yield chunk.subarray(0, end);
      }
      dropped += chunk.length - end;
    },
    *final(): Generator<Uint8Array | string, void, void> {
      // Output that really ends inside a character is kept as it came.
      if (pending) yield pending;
      if (dropped > 0) yield `\n[truncated ${dropped} bytes]`;
    },
  };
}

/** How many bytes of `chunk` end with a whole UTF-8 character: its length, or where an incomplete last character starts. */
function completeLength(chunk: Uint8Array): number {
  let start = chunk.length - 1;
  while (start > 0 && start > chunk.length - 4 && (chunk[start] & 0xc0) === 0x80) start--;
  const lead = chunk[start] ?? 0;
  const size = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return start + size > chunk.length ? start : chunk.length;
}
