import type { Command } from 'commander';
import { HELP_FLAGS } from '../../config/help-flags.js';

/**
 * `argv` (node, the script, then the words) with a request for help put in the one form every
 * command reads alike (docs/cli.md): `help spans query` and `spans help query` are `spans query --help` (commander's
 * `help` reads one word), `run --repeat 0 --help` is `run --help` (commander checks option values
 * before it sees --help), and `help nope` is `nope`, refused as an unknown command (a word after
 * a command without subcommands is ignored, as commander's `help` ignores it). What follows
 * `--` is an argument, never a flag. Any other argv is returned as given.
 */
export function helpRequest(argv: readonly string[], program: Command): string[] {
  const head = argv.slice(0, 2);
  const words = argv.slice(2);
  const end = words.indexOf('--');
  const given = end < 0 ? words : words.slice(0, end);
  // The command the leading words name; `help` among them (`help run`, `spans help query`) asks
  // for the help of the words after it.
  const path: string[] = [];
  let command = program;
  for (const [index, word] of given.entries()) {
    if (word === 'help' && command.commands.length) return helpOf(head, path, command, given.slice(index + 1));
    const sub = subcommand(command, word);
    if (!sub) break;
    path.push(word);
    command = sub;
  }
  if (!given.some((word) => HELP_FLAGS.has(word))) return [...argv];
  // The rest (paths, options and their values) is dropped.
  return [...head, ...path, '--help'];
}

/** `help WORDS` asked of `command` (reached by `path`): the help of the command WORDS name. */
function helpOf(head: string[], path: string[], command: Command, words: readonly string[]): string[] {
  const to = [...path];
  for (const word of words) {
    if (word.startsWith('-')) continue;
    // `help help`, `help spans help`: the help of what came before.
    if (word === 'help') break;
    // A word after a command without subcommands (`help run scenarios/`) is no command: never run.
    if (!command.commands.length) break;
    const sub = subcommand(command, word);
    if (!sub) return [...head, ...to, word];
    to.push(word);
    command = sub;
  }
  return [...head, ...to, '--help'];
}

function subcommand(command: Command, word: string): Command | undefined {
  return command.commands.find((sub) => sub.name() === word || sub.aliases().includes(word));
}
