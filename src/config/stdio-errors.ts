/**
 * Keeps a failed write to stdout or stderr from crashing the CLI with a stack trace: a reader that
 * closed the pipe early (`agentcheck ... | head`) is no error, and what is left to print is
 * dropped; any other failure (a full disk, `> /dev/full`) is said on stderr once and fails the
 * command (exit 1, docs/cli.md).
 */
export function watchStdioErrors(): { failed(): boolean } {
  let failed = false;
  for (const [name, stream] of [
    ['stdout', process.stdout],
    ['stderr', process.stderr],
  ] as const) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') return;
      if (!failed && name === 'stdout') process.stderr.write(`agentcheck: could not write to stdout: ${error.message}; exit 1\n`);
      failed = true;
      process.exitCode = 1;
    });
  }
  return { failed: () => failed };
}
