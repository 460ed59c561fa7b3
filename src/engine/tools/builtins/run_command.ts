import { ToolError } from '../../../config/errors.js';
import { PROCESS_ERROR_TYPES, runProcess, scrubbedEnv } from '../process/run-process.js';
import { insideRunEnv } from '../../inside-run.js';
import type { BuiltinTool } from './builtin-tool.js';
import { BUILTIN_PARAMETERS } from './builtin-parameters.js';

const NAME = 'run_command';
const TIMEOUT_MS = 30_000;
const MAX_OUTPUT_BYTES = 64 * 1024;

/**
 * run_command {argv} -> {exit_code, stdout, stderr}. No shell: argv[0] is the program and each
 * element is one argument. cwd is the workspace root, env is PATH and LANG only. A non-zero exit
 * is a normal result; a command that cannot start, times out or is killed throws ToolError.
 */
export const runCommandTool: BuiltinTool = {
  description:
    'Run a program in the workspace folder without a shell: argv[0] is the program, the rest are its arguments (no pipes, globs or redirection). Returns {exit_code, stdout, stderr}; output over 64 KB is truncated; 30 s timeout.',
  parameters: BUILTIN_PARAMETERS.run_command,
  readOnly: false,
  async run(args, ctx) {
    const argv = args.argv;
    if (!Array.isArray(argv) || argv.length === 0 || !argv.every((item) => typeof item === 'string') || argv[0] === '') {
      throw new ToolError(NAME, `argument "argv" must be a non-empty array of strings, e.g. ["ls", "-la"]; got ${JSON.stringify(argv)}`, 'INVALID_ARGUMENT');
    }
    const run = await runProcess(argv as string[], {
      cwd: await ctx.workspace.root(),
      env: insideRunEnv(scrubbedEnv(ctx.env, ['LANG'])),
      timeoutMs: TIMEOUT_MS,
      maxOutputBytes: MAX_OUTPUT_BYTES,
      signal: ctx.signal,
      processes: ctx.processes,
    });
    // The error codes read as the span's error.type once lowercased: not_found, timeout, signal, canceled.
    if (run.status !== 'exited') throw new ToolError(NAME, run.message, PROCESS_ERROR_TYPES[run.status].toUpperCase());
    return { exit_code: run.exitCode, stdout: run.stdout, stderr: run.stderr };
  },
};
