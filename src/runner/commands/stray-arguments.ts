import type { Command, Option } from 'commander';
import { EXIT } from './cli-io.js';
import { positiveInt, shardSpec, timeoutMs, wholeNumber } from './option-values.js';
import { allCommands, declaredParser, isListOption } from './single-value-options.js';
import { shellWord } from './shell-word.js';

/** Parsers of flags whose value is a number (or `I/N`): a value with a space is never one, so quoting is no advice. */
const NUMBER_PARSERS: ReadonlySet<unknown> = new Set([positiveInt, wholeNumber, timeoutMs, shardSpec]);

/** A flag that takes a value, as written, and the value it took. */
interface FlagValue {
  flag: string;
  option: Option;
  value: string;
}

/**
 * Makes every command of `program` whose arguments are fixed (none, or a set number: `test-run`,
 * `resume`, `spans query`, `compare`, `init`, `mcp`) refuse a word more with strayArgumentMessage
 * instead of commander's "too many arguments", exit 2 as before (docs/cli.md). `commandLine`
 * gives argv as parsed, for the words as written. Commands that take a list of paths take any
 * number of words and are left alone.
 */
export function refuseStrayArguments(program: Command, commandLine: () => readonly string[]): void {
  for (const command of allCommands(program)) {
    if (command.commands.length || command.registeredArguments.some((argument) => argument.variadic)) continue;
    command.allowExcessArguments(true);
    command.hook('preAction', (_self, action) => {
      if (action.args.length <= action.registeredArguments.length) return;
      const words = commandLine().slice(2 + commandPath(action).length);
      action.error(strayArgumentMessage(action, words), { exitCode: EXIT.invalidInput });
    });
  }
}

/**
 * Why a command got a word more than its arguments, for commander's error: most often a second
 * value written after a flag that takes one (`--error-token a b`, `--message hi there`, `--decision
 * approve deny`), so that flag is named with what to write instead (docs/cli.md). `words` is the
 * command line after the command's name.
 */
export function strayArgumentMessage(command: Command, words: readonly string[]): string {
  const { stray, after } = findStray(command, words);
  const head = `error: ${commandPath(command).join(' ')} ${takes(command)}; got ${command.registeredArguments.length ? 'one more: ' : ''}${JSON.stringify(stray)}`;
  // Commander's line after it says to add --help.
  if (!after) return head;
  const { flag, option, value } = after;
  const choices = option.argChoices;
  const instead = isListOption(option)
    ? `; give the flag again for each value: ${flag} ${shellWord(value)} ${flag} ${shellWord(stray)}`
    : choices?.length
      ? `: ${choices.slice(0, -1).join(', ')}${choices.length > 1 ? ' or ' : ''}${choices.at(-1)}`
      : NUMBER_PARSERS.has(declaredParser(option))
        ? ''
        : `; quote a value that holds spaces: ${flag} ${shellWord(`${value} ${stray}`)}`;
  return `${head} after ${flag} ${shellWord(value)}, and ${flag} takes one value${instead}`;
}

/** What a command takes: `flags only, no arguments`, `1 argument, <run_id>`, `at most 1 argument, [dir]`. */
function takes(command: Command): string {
  const declared = command.registeredArguments;
  if (declared.length === 0) return command.options.length ? 'takes flags only, no arguments' : 'takes no arguments';
  const names = declared.map((argument) => (argument.required ? `<${argument.name()}>` : `[${argument.name()}]`)).join(' ');
  const most = declared.some((argument) => !argument.required) ? 'at most ' : '';
  return `takes ${most}${declared.length} argument${declared.length === 1 ? '' : 's'}, ${names}`;
}

/**
 * The first word past the command's own arguments (no flag nor a flag's value), and the flag and
 * value written just before it.
 */
function findStray(command: Command, words: readonly string[]): { stray: string; after?: FlagValue } {
  const taken = command.registeredArguments.length;
  let positionals = 0;
  let operandsOnly = false;
  let after: FlagValue | undefined;
  for (let index = 0; index < words.length; index++) {
    const word = words[index];
    if (word === '--' && !operandsOnly) {
      operandsOnly = true;
      after = undefined;
    } else if (operandsOnly || !word.startsWith('-') || word === '-') {
      if (positionals++ === taken) return { stray: word, after };
      after = undefined;
    } else {
      const [flag, inline] = word.split(/=(.*)/s, 2);
      const option = command.options.find((candidate) => candidate.long === flag || candidate.short === flag);
      if (!option?.required) after = undefined;
      else if (inline !== undefined) after = { flag, option, value: inline };
      else after = { flag, option, value: words[++index] ?? '' };
    }
  }
  // Not found by this walk (commander reads a word it did not, a negative number): named as commander counted it.
  return { stray: command.args[taken] ?? '' };
}

/** The command's names below the program: ['test-run'], ['spans', 'query']. */
function commandPath(command: Command): string[] {
  const names: string[] = [];
  for (let at: Command | null = command; at?.parent; at = at.parent) names.unshift(at.name());
  return names;
}
