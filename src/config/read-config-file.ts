import { statSync } from 'node:fs';
import { ConfigError } from './errors.js';
import { readError } from './read-error.js';
import { readUpTo } from './read-up-to.js';
import { utf8Text } from './utf8-text.js';

/** Largest config file we read; a larger one is refused rather than parsed (hostile input). */
export const MAX_CONFIG_BYTES = 5 * 1024 * 1024;

/** A config file's text, refusing oversized ones; a folder or an unreadable file is a ConfigError too. */
export function readConfigText(file: string): string {
  let stats;
  try {
    stats = statSync(file);
  } catch (error) {
    throw readError(file, error);
  }
  if (stats.isDirectory()) throw new ConfigError({ file }, 'is a folder; expected a YAML or JSON file', 'CONFIG_NOT_A_FILE');
  if (stats.size > MAX_CONFIG_BYTES) {
    throw new ConfigError({ file }, `is ${stats.size} bytes; config files are limited to ${MAX_CONFIG_BYTES} bytes`, 'CONFIG_TOO_LARGE');
  }
  let bytes: Buffer;
  try {
    bytes = readUpTo(file, stats, MAX_CONFIG_BYTES);
  } catch (error) {
    throw readError(file, error);
  }
  if (bytes.length > MAX_CONFIG_BYTES) {
    throw new ConfigError({ file }, `is larger than ${MAX_CONFIG_BYTES} bytes, the limit of config files`, 'CONFIG_TOO_LARGE');
  }
  return utf8Text(bytes, file);
}
