import { fileInPlaceOfFolder } from '../files/file-in-place-of-folder.js';
import { join, resolve } from 'node:path';
import { ConfigError } from '../../config/errors.js';
import { CASSETTE_MODES, type CassetteMode } from './cassette.js';

/** Where a suite's cassettes live and what to do with them. */
export interface CassetteSettings {
  mode: CassetteMode;
  /** Absolute folder holding `<scenario slug>/<variant>/<repeat>.json`. */
  dir: string;
}

/** The suite config's `cassettes` block, its `dir` already absolute. */
export interface CassetteConfig {
  mode?: CassetteMode;
  dir?: string;
}

/** Cassettes sit under `fixtures/cassettes` beside the suite config (or the cwd without one). */
export const DEFAULT_CASSETTE_DIR = join('fixtures', 'cassettes');

/**
 * The `--cassettes` flag wins over the config's `cassettes.mode`; without either, cassettes
 * are off. The folder is the config's `cassettes.dir`, else `fixtures/cassettes` under `baseDir`.
 */
export function resolveCassetteSettings(flag: string | undefined, config: CassetteConfig | undefined, baseDir: string): CassetteSettings {
  if (flag !== undefined && !(CASSETTE_MODES as readonly string[]).includes(flag)) {
    throw new ConfigError({ file: '--cassettes' }, `unknown cassette mode "${flag}"; expected one of ${CASSETTE_MODES.join(', ')}`);
  }
  const mode = (flag as CassetteMode | undefined) ?? config?.mode ?? 'off';
  const dir = config?.dir ?? resolve(baseDir, DEFAULT_CASSETTE_DIR);
  if (mode !== 'off') refuseFileInPlaceOfFolder(dir, config?.dir === undefined ? `the default cassettes folder (${DEFAULT_CASSETTE_DIR})` : 'cassettes.dir');
  return { mode, dir };
}

/**
 * Refuses, before any run, a cassettes folder that a file stands in the way of (the folder or one
 * above it): every run would make its live calls and then fail to write or read its cassette.
 */
function refuseFileInPlaceOfFolder(dir: string, what: string): void {
  const where = fileInPlaceOfFolder(dir);
  if (where) throw new ConfigError({ file: dir }, `${what} must be a folder, but ${where}, not a folder`, 'CONFIG_INVALID');
}
