import type { FormatCheck, Locator } from '../../config/assert-format.js';
import { quoteCapped } from '../../config/cap-text.js';
import { formatAt, type PartFormat } from '../../config/format-part.js';
import type { ConfigError } from '../../config/errors.js';
import { allowEntryProblem } from '../permissions/permission.js';
import { buildAgent } from './build-agent.js';
import { variableNameProblem } from './env-variable-name.js';
import type { AgentBuild, CommandSpec, ToolSpec } from './types.js';

/**
 * The problems of what would make commands silently never work: a `commands.allow` entry no
 * argv[0] can be, and of each `command` tool, an empty program or an `allow_env` entry that is
 * not a variable name, each when its own value is sound (docs/formats.md, Permissions and Tools).
 * `commands` on a build with no run_command tool of its own is not refused: a flow's steps and
 * toolsets call the built-in by name, and a variant may remove the tool while keeping commands.
 */
export function commandProblems(build: AgentBuild, tools: readonly ToolSpec[], format: FormatCheck, locate: Locator): ConfigError[] {
  const problems: ConfigError[] = [];
  const commands = buildAgent(build).commands;
  if (commands && format.valid(['agent', 'commands'])) {
    (commands.allow ?? []).forEach((entry, index) => {
      const problem = allowEntryProblem(entry);
      if (problem) problems.push(locate(['agent', 'commands', 'allow', index], problem));
    });
  }
  // Each command tool key by key: a bad value elsewhere in the tool (`max_output_bytes: 0`) hides none of these.
  tools.forEach((tool, index) => {
    const at = ['agent', 'tools', index, 'command'];
    if (format.typed(at) && tool.command) problems.push(...commandToolProblems(tool.command, at, locate, formatAt(format, at)));
  });
  return problems;
}

/** The problems of one command tool's `command`, on the values `part` (its format, relative to it) leaves valid. */
function commandToolProblems(command: CommandSpec, at: (string | number)[], locate: Locator, part: PartFormat): ConfigError[] {
  const problems: ConfigError[] = [];
  // Read only once the format vouches for it: argv may be missing, or no list.
  const program = part.valid(['argv', 0]) ? command.argv[0] : undefined;
  if (program !== undefined && program.trim() === '') {
    problems.push(
      locate([...at, 'argv', 0], `expected the program to run (argv[0]: a name on PATH or a path), got ${quoteCapped(program)}, which no process can be`),
    );
  }
  const allowEnv = part.typed(['allow_env']) ? (command.allow_env ?? []) : [];
  allowEnv.forEach((name, index) => {
    if (!part.valid(['allow_env', index])) return;
    const problem = variableNameProblem(name, "allow_env names variables of agentcheck's environment, whose values pass to the command as they are set there");
    if (problem) problems.push(locate([...at, 'allow_env', index], problem));
  });
  return problems;
}
