import { Writable } from 'node:stream';
import { printable } from '../reporters/format/printable.js';
import type { CommandIO } from '../commands/cli-io.js';

// The escapes GitHub's toolkit (@actions/core) applies to workflow command data and properties.
/** Text as the data of a workflow command (`::error ...::<data>`): `%`, CR and LF encoded. */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Text as a property of a workflow command (`file=`, `title=`): also `:` and `,` encoded. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

// A line break followed by a line that GitHub's runner reads as a workflow command: after leading
// whitespace (it trims the line) `::name ...::` or the older `##[name]`.
const BREAK_BEFORE_COMMAND = /(\r\n|\r|\n)(?=[^\S\r\n]*(?:::|##\[))/g;

/**
 * Text for a line of stderr on GitHub Actions: control characters removed (printable), each
 * line break that would start a workflow command encoded as in a command's data (`%0A`), `##[`
 * anywhere written `##%5B`, and `::` at the start of text that begins a line `:%3A`. The
 * runner reads commands from stderr as from stdout, and messages quote user text (a stray
 * error's message, a scenario name); docs/ci.md.
 */
export function commandFreeText(text: string, atLineStart = false): string {
  let free = printable(text)
    .replace(BREAK_BEFORE_COMMAND, (lineBreak) => escapeData(lineBreak))
    // The runner finds `##[name]` anywhere in a line, not only at its start.
    .replace(OLD_COMMAND, '##%5B');
  // Text that begins a line (after an earlier write's line break) must not begin with `::` either.
  if (atLineStart) free = free.replace(LEADING_COMMAND, (_whole, space: string) => `${space}:%3A`);
  return free;
}

const OLD_COMMAND = /##\[/g;
const LEADING_COMMAND = /^([^\S\r\n]*)::/;

/**
 * `io` with its stderr passed through commandFreeText when the process runs as a GitHub Actions
 * step (whether or not agentcheck annotates it: the runner reads commands either way).
 */
export function withCommandFreeStderr(io: CommandIO): CommandIO {
  if (io.env.GITHUB_ACTIONS !== 'true') return io;
  const target = io.stderr;
  // Whether the next write begins a line: the stream's start, or after a line break.
  let atLineStart = true;
  const stderr = new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, done) {
      const text = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
      // Passed on at once, so stderr keeps its order with the process's own writes.
      target.write(commandFreeText(text, atLineStart));
      if (text) atLineStart = /[\r\n]$/.test(text);
      done();
    },
  });
  return { ...io, stderr };
}
