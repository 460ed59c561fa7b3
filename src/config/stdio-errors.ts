/** What watchStdioErrors gives back: whether printing failed, and the check to make before exiting. */
export interface StdioWatch {
  failed(): boolean;
  /**
   * Takes a failed write to stdout now if its 'error' event has not come yet: `error` is what the
   * last write's callback got, or the stream's own error (Node's stdout takes its error back at
   * once and emits the event later, so a failure just before the process ends would go unsaid).
   * Sets exit code 1 unless the command set its own.
   */
  settle(error: Error | null | undefined): void;
}

/**
 * Keeps a failed write to stdout or stderr from crashing the CLI with a stack trace: a reader that
 * closed the pipe early (`agentcheck ... | head`) is no error, and what is left to print is
 * dropped; any other failure (a full disk, `> /dev/full`, stdout closed) fails the command (exit
 * 1, a command's own 2 kept) and is said on stderr once as the process exits, with the code it
 * exits with (docs/cli.md): only then is that code final.
 */
export function watchStdioErrors(): StdioWatch {
  let failed = false;
  let stdoutFailure: string | undefined;
  const fail = (name: string, error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') return;
    if (name === 'stdout') stdoutFailure ??= error.message;
    failed = true;
    // A command's own failure (2 for invalid input) is kept.
    if (!process.exitCode) process.exitCode = 1;
  };
  for (const [name, stream] of [
    ['stdout', process.stdout],
    ['stderr', process.stderr],
  ] as const) {
    stream.on('error', (error: NodeJS.ErrnoException) => fail(name, error));
  }
  process.once('exit', () => {
    if (stdoutFailure === undefined) return;
    if (!process.exitCode) process.exitCode = 1;
    process.stderr.write(`agentcheck: could not write to stdout: ${stdoutFailure}; exit ${process.exitCode}\n`);
  });
  return {
    failed: () => failed,
    settle: (error) => {
      if (error) fail('stdout', error);
    },
  };
}
