import { type Command, InvalidArgumentError, type Option } from 'commander';
import { appendList, collectFolders, collectList, collectTokens } from './option-values.js';

/** Parsers of flags that may be given several times, each adding to a list. */
const REPEATABLE: ReadonlySet<unknown> = new Set([collectList, collectFolders, appendList, collectTokens]);

/** Whether `option` may be given several times, each value adding to its list (`--error-token`, `--overlay`). */
export function isListOption(option: Option): boolean {
  return REPEATABLE.has(option.parseArg);
}

/** The parser each single-value flag was declared with, before refuseRepeatedValues wrapped it. */
const DECLARED_PARSERS = new WeakMap<Option, Option['parseArg']>();

/** The parser `option` was declared with (`positiveInt`, `nonEmpty`, ...), undefined for plain text. */
export function declaredParser(option: Option): Option['parseArg'] {
  return DECLARED_PARSERS.has(option) ? DECLARED_PARSERS.get(option) : option.parseArg;
}

/** What to do instead of a second value, for flags where one is easy to want. */
const ONCE_HINTS: Readonly<Record<string, string>> = {
  // report.json's `suite.grep` holds one text; either-of is one expression.
  '--grep': "as a regular expression, --grep 'a|b' selects the scenarios matching either",
};

/**
 * Makes every single-value flag of `program` and its commands refuse a second value: commander
 * keeps the last one, so `--delta a.yaml --delta b.yaml` applied only b, and `resume --decision
 * approve --decision deny` denied, without a word (docs/cli.md). List flags keep adding.
 */
export function refuseRepeatedValues(program: Command): void {
  for (const command of [program, ...allCommands(program)]) {
    for (const option of command.options) {
      if ((!option.required && !option.optional) || option.variadic || isListOption(option)) continue;
      const parse = option.parseArg;
      DECLARED_PARSERS.set(option, parse);
      const flag = option.long ?? option.flags;
      let typed: string | undefined;
      option.argParser((value: string, previous: unknown) => {
        if (previous !== undefined && previous !== option.defaultValue) {
          const hint = ONCE_HINTS[flag];
          // A parsed value (--shard's {index, total}, --repeat's number) is not what the user
          // wrote: quote their text.
          throw new InvalidArgumentError(`${flag} is given twice (first ${JSON.stringify(typed ?? previous)}); give it once${hint ? `: ${hint}` : ''}`);
        }
        typed = value;
        return parse ? parse(value, undefined) : value;
      });
    }
  }
}

/** Every command below `command`, subcommands included. */
export function allCommands(command: Command): Command[] {
  return command.commands.flatMap((child) => [child, ...allCommands(child)]);
}
