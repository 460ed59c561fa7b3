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
  const mode = cassetteMode(flag, config?.mode);
  const dir = config?.dir ?? resolve(baseDir, DEFAULT_CASSETTE_DIR);
  const where = cassetteDirProblem(mode, dir);
  if (where) {
    const what = config?.dir === undefined ? `the default cassettes folder (${DEFAULT_CASSETTE_DIR})` : 'cassettes.dir';
    throw new ConfigError({ file: dir }, `${what} must be a folder, but ${where}, not a folder`, 'CONFIG_INVALID');
  }
  return { mode, dir };
}

/** The mode a run uses: a known `--cassettes` flag wins over the config's `cassettes.mode`; default off. */
export function cassetteMode(flag: string | undefined, configMode: CassetteMode | undefined): CassetteMode {
  const known = (CASSETTE_MODES as readonly string[]).includes(flag ?? '') ? (flag as CassetteMode) : undefined;
  return known ?? configMode ?? 'off';
}

/**
 * Where a file stands in the way of the cassettes folder (the folder or one above it), when the
 * mode reads or writes cassettes: every run would make its live calls and then fail to write or
 * read its cassette. In mode `off` the folder is never used, so it is not checked (docs/cassettes.md).
 */
export function cassetteDirProblem(mode: CassetteMode, dir: string): string | undefined {
  return mode === 'off' ? undefined : fileInPlaceOfFolder(dir);
}
