import type { Command, Option } from 'commander';
import { isListOption } from './single-value-options.js';
import { shellWord } from './shell-word.js';

/** A flag that takes a value, as written, and the value it took. */
interface FlagValue {
  flag: string;
  option: Option;
  value: string;
}

/**
 * Why a command that takes flags only (`test-run`) got a word of its own, for commander's error:
 * most often a second value written after a flag that takes one (`--error-token a b`, `--message
 * hi there`), so that flag is named with what to write instead (docs/cli.md). `words` is the
 * command line after the command's name.
 */
export function strayArgumentMessage(command: Command, words: readonly string[]): string {
  const { stray, after } = findStray(command, words);
  const head = `error: ${command.name()} takes flags only, no arguments; got ${JSON.stringify(stray)}`;
  // Commander's line after it says to add --help.
  if (!after) return head;
  const { flag, option, value } = after;
  const instead = isListOption(option)
    ? `give the flag again for each value: ${flag} ${shellWord(value)} ${flag} ${shellWord(stray)}`
    : `quote a value that holds spaces: ${flag} ${shellWord(`${value} ${stray}`)}`;
  return `${head} after ${flag} ${shellWord(value)}, and ${flag} takes one value; ${instead}`;
}

/** The first word that is no flag nor a flag's value, and the flag and value written just before it. */
function findStray(command: Command, words: readonly string[]): { stray: string; after?: FlagValue } {
  let after: FlagValue | undefined;
  for (let index = 0; index < words.length; index++) {
    const word = words[index];
    if (word === '--') return { stray: words[index + 1] ?? '--' };
    if (!word.startsWith('-')) return { stray: word, after };
    const [flag, inline] = word.split(/=(.*)/s, 2);
    const option = command.options.find((candidate) => candidate.long === flag || candidate.short === flag);
    if (!option?.required) after = undefined;
    else if (inline !== undefined) after = { flag, option, value: inline };
    else after = { flag, option, value: words[++index] ?? '' };
  }
  // Not found by this walk (commander reads a word it did not): named as commander counted it.
  return { stray: command.args[0] ?? '' };
}
