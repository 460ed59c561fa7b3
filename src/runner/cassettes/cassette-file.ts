import { readFile } from 'node:fs/promises';
import { checkFormat, memoryLocator } from '../../config/assert-format.js';
import { ConfigError, RunError } from '../../config/errors.js';
import { jsonSyntaxProblem } from '../../config/json-syntax-error.js';
import { writeFileAtomic } from '../report/write-atomic.js';
import { cassetteFileSchema, type Cassette } from './cassette.js';
import { cassetteRuleProblems } from './cassette-rules.js';
import { reRecord, type CassetteModeSetting } from './cassette-mode-setting.js';

/**
 * Reads and validates a cassette; undefined when there is no file (a run not recorded yet).
 * `setMode` names how the caller re-records one that is not valid.
 */
export async function readCassette(path: string, setMode: CassetteModeSetting): Promise<Cassette | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const { reason, ...pos } = jsonSyntaxProblem(text, error);
    throw new ConfigError({ file: path, ...pos }, `a cassette must be JSON (${reason}); ${reRecord(setMode)}`, 'CASSETTE_INVALID');
  }
  const format = checkFormat<Cassette>(cassetteFileSchema, value, memoryLocator(path));
  const errors = [...format.errors, ...cassetteRuleProblems(format, memoryLocator(path))];
  if (errors.length === 1) throw new ConfigError({ file: path, path: errors[0].path }, `${errors[0].expected}; ${reRecord(setMode)}`, 'CASSETTE_INVALID');
  // Each problem once, in one line (a row's reason is one line), and the way out once.
  if (errors.length > 1) {
    const problems = errors.map((error) => (error.path ? `at ${error.path}: ${error.expected}` : error.expected));
    throw new ConfigError({ file: path }, `${errors.length} problems: ${problems.join('; ')}; ${reRecord(setMode)}`, 'CASSETTE_INVALID');
  }
  return value as Cassette;
}

/**
 * Writes a cassette atomically (a killed run leaves the old file or the new one, never half).
 * `scrub` runs over the final text as a last guard: no secret value reaches the disk even if
 * it slipped into a field the stripper did not look at.
 */
export async function writeCassette(path: string, cassette: Cassette, scrub: (text: string) => string): Promise<void> {
  try {
    await writeFileAtomic(path, `${scrub(JSON.stringify(cassette, null, 2))}\n`);
  } catch (error) {
    throw cassetteWriteError(path, error);
  }
}

/** A cassette that cannot be written, as the run's error: a stable code naming the file (docs/cassettes.md). */
function cassetteWriteError(path: string, error: unknown): RunError {
  const code = (error as NodeJS.ErrnoException).code;
  // rename's own message names the temp file, not the cassette; createFolders' names the file in the way.
  const why = code === 'EISDIR' ? 'a folder is in its place' : error instanceof Error ? error.message : String(error);
  return new RunError('CASSETTE_WRITE_FAILED', `cannot write the cassette ${path}: ${why}`, { cause: error });
}
