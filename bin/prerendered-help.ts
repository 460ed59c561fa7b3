import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { HELP_FLAGS } from '../src/config/help-flags.js';

// `agentcheck --help` and `agentcheck <command> --help` print text rendered at build time
// (scripts/bundle-cli.mjs writes help.json beside the CLI script), without loading the CLI: its
// code cache alone took longer than the rest of a help start (docs/architecture.md, Build).

/** help.json: the help texts of one build of the CLI script, by command words ("" is the program's). */
export interface PrerenderedHelpFile {
  /** The hash and size of the cli.cjs they were rendered from: another script renders its own. */
  cli: string;
  size: number;
  texts: Record<string, string>;
}

/**
 * The help text `argv` (the words after `agentcheck`) asks for, as the CLI script `script` would
 * print it, or undefined when that script must render it: another form of asking (`help run`,
 * options beside the flag), a command help.json lacks, a file of another script, or a terminal on
 * stdout (the CLI wraps help to a terminal's width; the kept texts are wrapped as for a pipe or a file).
 */
export function prerenderedHelp(argv: readonly string[], file: string, script: { hash: string; size: number }): string | undefined {
  const flag = argv.at(-1);
  if (flag === undefined || !HELP_FLAGS.has(flag)) return undefined;
  const words = argv.slice(0, -1);
  if (words.some((word) => word.startsWith('-')) || stdoutIsTerminal()) return undefined;
  let kept: Partial<PrerenderedHelpFile>;
  try {
    kept = JSON.parse(readFileSync(file, 'utf8')) as Partial<PrerenderedHelpFile>;
  } catch {
    return undefined;
  }
  if (kept.cli !== script.hash || kept.size !== script.size) return undefined;
  const text = kept.texts && Object.hasOwn(kept.texts, words.join(' ')) ? kept.texts[words.join(' ')] : undefined;
  return typeof text === 'string' ? text : undefined;
}

/** isatty(1), with node:tty loaded only when help is asked for: every other start would pay about 2 ms for it. */
function stdoutIsTerminal(): boolean {
  return (createRequire(import.meta.url)('node:tty') as typeof import('node:tty')).isatty(1);
}
