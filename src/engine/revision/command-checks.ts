import type { FormatCheck, Locator } from '../../config/assert-format.js';
import { quoteCapped } from '../../config/cap-text.js';
import type { ConfigError } from '../../config/errors.js';
import { allowEntryProblem } from '../permissions/permission.js';
import { buildAgent } from './build-agent.js';
import type { AgentBuild, CommandSpec, ToolSpec } from './types.js';

/** What `allow_env` can name: a variable the environment can hold (POSIX portable names). */
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The problems of what would make commands silently never work: a `commands.allow` entry no
 * argv[0] can be, `commands` on a build with no built-in run_command tool (nothing reads it), and
 * of each `command` tool whose format is valid, an empty program or an `allow_env` entry that is
 * not a variable name (docs/formats.md, Permissions and Tools).
 */
export function commandProblems(build: AgentBuild, tools: readonly ToolSpec[], format: FormatCheck, locate: Locator): ConfigError[] {
  const problems: ConfigError[] = [];
  const commands = buildAgent(build).commands;
  if (commands && format.valid(['agent', 'commands'])) {
    (commands.allow ?? []).forEach((entry, index) => {
      const problem = allowEntryProblem(entry);
      if (problem) problems.push(locate(['agent', 'commands', 'allow', index], problem));
    });
    // Tools with format problems are reported already; with them the question is left open.
    const toolsKnown = tools.every((_tool, index) => format.valid(['agent', 'tools', index]));
    if (toolsKnown && !tools.some((tool) => tool.builtin === 'run_command')) {
      problems.push(
        locate(
          ['agent', 'commands'],
          'commands.allow lists the programs the built-in run_command tool may run without approval, but this build has no run_command tool, so nothing reads it; add a tool {name: run_command, description: ..., builtin: run_command} or remove commands',
          true,
        ),
      );
    }
  }
  tools.forEach((tool, index) => {
    if (format.valid(['agent', 'tools', index]) && tool.command)
      problems.push(...commandToolProblems(tool.command, ['agent', 'tools', index, 'command'], locate));
  });
  return problems;
}

function commandToolProblems(command: CommandSpec, at: (string | number)[], locate: Locator): ConfigError[] {
  const problems: ConfigError[] = [];
  const program = command.argv[0];
  if (program.trim() === '') {
    problems.push(
      locate([...at, 'argv', 0], `expected the program to run (argv[0]: a name on PATH or a path), got ${quoteCapped(program)}, which no process can be`),
    );
  }
  (command.allow_env ?? []).forEach((name, index) => {
    if (VARIABLE_NAME.test(name)) return;
    const hint = name.includes('=') ? `; allow_env names variables of agentcheck's environment, whose values pass to the command as they are set there` : '';
    problems.push(
      locate(
        [...at, 'allow_env', index],
        `expected an environment variable name (letters, digits and _, not starting with a digit), got ${quoteCapped(name)}${hint}`,
      ),
    );
  });
  return problems;
}
