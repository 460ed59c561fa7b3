import { ToolError } from '../../../config/errors.js';
import type { CommandSpec, ToolSpec } from '../../revision/types.js';
import { stringifyValue } from '../../template/interpolate.js';
import { PROCESS_ERROR_TYPES, runProcess, scrubbedEnv } from '../process/run-process.js';
import { insideRunEnv } from '../../inside-run.js';
import type { Tool, ToolContext, ToolOutcome } from '../tool.js';
import { templateFromArgs } from './args-template.js';
import { toolHeader } from './tool-header.js';
import { quoteCapped } from '../../../config/cap-text.js';

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;

/**
 * A `command` tool (docs/formats.md, Tools): runs spec.command.argv with `{{ args.x }}` templates, each
 * element one argv entry, never through a shell; cwd = workspace root; env = PATH plus allow_env.
 */
export function createCommandTool(spec: ToolSpec): Tool {
  const command = spec.command;
  if (!command) throw new ToolError(spec.name, `tool ${spec.name} has no "command" section`, 'INVALID_TOOL_SPEC');
  return {
    ...toolHeader(spec, 'command'),
    execute: (args, ctx) => runCommandSpec(spec.name, command, args, ctx),
  };
}

async function runCommandSpec(name: string, command: CommandSpec, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutcome> {
  // Whatever a template yields stays one argument: a value with spaces or `; rm -rf /` is
  // inert text, and arrays or objects become their compact JSON, never several arguments.
  const argv = command.argv.map((element, index) => stringifyValue(templateFromArgs(name, element, args, `command.argv[${index}]`)));
  if (argv.length === 0 || argv[0] === '') throw new ToolError(name, `tool ${name} has an empty command.argv[0]`, 'INVALID_TOOL_SPEC');
  if (command.refuse_option_args) refuseOptionArgs(name, command.argv, argv);
  const run = await runProcess(argv, {
    cwd: await ctx.workspace.root(),
    env: insideRunEnv(scrubbedEnv(ctx.env, command.allow_env ?? [])),
    timeoutMs: command.timeout_ms ?? DEFAULT_TIMEOUT_MS,
    maxOutputBytes: command.max_output_bytes ?? DEFAULT_MAX_OUTPUT_BYTES,
    signal: ctx.signal,
    processes: ctx.processes,
  });
  const result = { exit_code: run.exitCode, stdout: run.stdout, stderr: run.stderr };
  if (run.status === 'exited') {
    return run.exitCode === 0 ? { result, isError: false } : { result, isError: true, errorType: `exit_${run.exitCode}` };
  }
  return { result: { ...result, error: run.message }, isError: true, errorType: PROCESS_ERROR_TYPES[run.status] };
}

/**
 * With `refuse_option_args`, an argument whose value a template turned into an option
 * (`{{ args.ref }}` given `--output=/tmp/x`) is refused before the program starts: the program
 * would read it as an option, not as data (docs/security.md). Arguments written with a leading
 * `-` and everything after a literal `--` are the author's and pass.
 */
function refuseOptionArgs(name: string, written: readonly string[], argv: readonly string[]): void {
  for (let index = 1; index < argv.length; index++) {
    if (written[index] === '--') return;
    if (argv[index].startsWith('-') && !written[index].startsWith('-')) {
      throw new ToolError(
        name,
        `tool ${name}: command.argv[${index}] would be ${quoteCapped(argv[index])}, which starts with "-" and would be read as an option; this tool refuses option arguments (refuse_option_args), so pass a value that does not start with "-"`,
        'OPTION_ARGUMENT',
      );
    }
  }
}
