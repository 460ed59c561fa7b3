import { AgentcheckError, ConfigError } from '../../config/errors.js';

/** Exit codes (docs/cli.md). */
export const EXIT = { ok: 0, failed: 1, invalidInput: 2 } as const;

/** Where a command prints; injectable so commands are testable in-process. */
export interface CommandIO {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  isTTY: boolean;
  /** Width of the terminal stdout writes to; undefined when stdout is not a terminal. */
  columns?: number;
}

/** The process's own streams. */
export function processIO(): CommandIO {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    cwd: process.cwd(),
    env: process.env,
    isTTY: Boolean(process.stderr.isTTY) && !process.env.CI,
    columns: process.stdout.isTTY ? process.stdout.columns : undefined,
  };
}

/**
 * Prints an error the way users need it: a ConfigError as `file:line:col at path: expected`,
 * and returns the exit code it implies (2 for invalid input, 1 otherwise).
 */
export function reportError(error: unknown, io: CommandIO): number {
  if (error instanceof ConfigError) {
    io.stderr.write(`agentcheck: invalid input: ${error.message}\n`);
    return EXIT.invalidInput;
  }
  if (error instanceof AgentcheckError) {
    io.stderr.write(`agentcheck: ${error.code}: ${error.message}\n`);
    return EXIT.failed;
  }
  io.stderr.write(`agentcheck: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  return EXIT.failed;
}
