/** What watchStdioErrors gives back: whether printing failed, and the check to make before exiting. */
export interface StdioWatch {
  failed(): boolean;
  /**
   * Says a failed write to stdout now if its 'error' event has not come yet: `error` is what the
   * last write's callback got (Node's stdout takes its error back at once and emits the event
   * later, so a failure just before the process ends would go unsaid). Sets exit code 1.
   */
  settle(error: Error | null | undefined): void;
}

/**
 * Keeps a failed write to stdout or stderr from crashing the CLI with a stack trace: a reader that
 * closed the pipe early (`agentcheck ... | head`) is no error, and what is left to print is
 * dropped; any other failure (a full disk, `> /dev/full`, stdout closed) is said on stderr once
 * and fails the command (exit 1, docs/cli.md).
 */
export function watchStdioErrors(): StdioWatch {
  let failed = false;
  const fail = (name: string, error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') return;
    if (!failed && name === 'stdout') process.stderr.write(`agentcheck: could not write to stdout: ${error.message}; exit 1\n`);
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
  return {
    failed: () => failed,
    settle: (error) => {
      if (error) fail('stdout', error);
    },
  };
}
