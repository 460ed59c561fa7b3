import { statSync, type Stats } from 'node:fs';
import { ConfigError } from './errors.js';

/**
 * What a file that is neither a regular file nor a folder is (`a named pipe (FIFO)`, `a socket`,
 * `a device`), or undefined for those two. Opening a named pipe blocks until another process
 * opens its other end, and no signal ends that wait: such files are refused before any open.
 */
export function specialFileKind(stats: Pick<Stats, 'isFile' | 'isDirectory' | 'isFIFO' | 'isSocket'>): string | undefined {
  if (stats.isFile() || stats.isDirectory()) return undefined;
  return stats.isFIFO() ? 'a named pipe (FIFO)' : stats.isSocket() ? 'a socket' : 'a device';
}

/**
 * A ConfigError when `file` (links followed) is a named pipe, socket or device, found by stat
 * alone (never opened): a scenario file run or validate would otherwise block on for ever
 * (docs/cli.md). Undefined for a regular file, a folder, or a path that cannot be stat'ed (its
 * reader says why).
 */
export function specialFileProblem(file: string, expected: string): ConfigError | undefined {
  const kind = specialFileKindAt(file);
  return kind === undefined ? undefined : new ConfigError({ file }, `is ${kind}, not a regular file; expected ${expected}`, 'CONFIG_NOT_A_FILE');
}

/** specialFileKind of the file at `file` (links followed, never opened); undefined when it cannot be stat'ed. */
export function specialFileKindAt(file: string): string | undefined {
  try {
    return specialFileKind(statSync(file));
  } catch {
    return undefined;
  }
}
