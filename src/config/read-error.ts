import { ConfigError } from './errors.js';

/** Why a file could not be read, as a ConfigError naming it. */
export function readError(file: string, error: unknown): ConfigError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return new ConfigError({ file }, 'file not found', 'CONFIG_NOT_FOUND');
  if (code === 'EACCES' || code === 'EPERM') return new ConfigError({ file }, 'cannot be read: permission denied', 'CONFIG_UNREADABLE');
  if (code === 'EISDIR') return new ConfigError({ file }, 'is a folder; expected a file', 'CONFIG_NOT_A_FILE');
  return new ConfigError({ file }, `cannot be read: ${(error as Error).message}`, 'CONFIG_UNREADABLE');
}
