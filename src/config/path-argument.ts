import { statSync } from 'node:fs';
import { describeValue } from './describe-value.js';
import { refuseEmptyPath } from './empty-values.js';
import { ConfigError } from './errors.js';

/**
 * A library entry's path argument must be a non-blank string: anything else is a ConfigError
 * naming the entry and the argument (`loadSuite at cwd: expected a folder path (a string), got
 * number 5`), never Node's `The "path" argument must be of type string` from deep inside, nor
 * ignored; an empty one (an unset variable) is never read as the current folder.
 */
export function assertPathArgument(value: unknown, entry: string, argument: string, what = 'a path'): asserts value is string {
  if (typeof value !== 'string') throw new ConfigError({ file: entry, path: argument }, `expected ${what} (a string), got ${describeValue(value)}`);
  refuseEmptyPath(value, what, { file: entry, path: argument });
}

/**
 * A folder argument others are read relative to (`loadSuite`'s `cwd`): a string naming an existing
 * folder, else a ConfigError at it, not a "path not found" for what was looked up inside it.
 */
export function assertFolderArgument(value: unknown, entry: string, argument: string, relativeWhat: string): asserts value is string {
  assertPathArgument(value, entry, argument, 'a folder path');
  const info = statSync(value, { throwIfNoEntry: false });
  if (!info?.isDirectory()) {
    throw new ConfigError(
      { file: entry, path: argument },
      `${info ? `${value} is a file, not a folder` : `folder not found: ${value}`}; expected the folder ${relativeWhat} are relative to`,
      info ? 'CONFIG_INVALID' : 'CONFIG_NOT_FOUND',
    );
  }
}
