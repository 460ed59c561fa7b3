import { existsSync, lstatSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { ConfigError } from '../../config/errors.js';
import { createFolders } from '../../config/create-folders.js';
import { STARTER_FILES } from '../init/starter-files.js';
import { EXIT, reportError, type CommandIO } from './cli-io.js';
import { shellWord } from './shell-word.js';

/**
 * `agentcheck init [DIR]`: writes a starter suite into DIR (default: the current folder). Writes
 * nothing when any of its files already exists, so it never overwrites a user's work.
 */
export async function initCommand(dir: string | undefined, io: CommandIO): Promise<number> {
  const target = resolve(io.cwd, dir ?? '.');
  const shown = (file: string) => relative(io.cwd, join(target, file)) || file;
  try {
    const existing = Object.keys(STARTER_FILES).filter((file) => existsSync(join(target, file)));
    if (existing.length) {
      throw new ConfigError(
        { file: dir ?? '.' },
        // The real rule: none of the starter's files may exist; other files are left alone.
        `already has ${existing.map(shown).join(', ')}; agentcheck init never overwrites files, so it writes nothing: expected a folder where none of ${Object.keys(STARTER_FILES).join(', ')} exists (other files may be there; try agentcheck init ${shellWord(freeFolder(io.cwd))})`,
        'INIT_EXISTS',
      );
    }
    for (const [file, text] of Object.entries(STARTER_FILES)) {
      createFolders(dirname(join(target, file)));
      // `wx`: fail rather than overwrite, should a file appear between the check and the write.
      writeFileSync(join(target, file), text, { flag: 'wx' });
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') {
      return reportError(new ConfigError({ file: dir ?? '.' }, `cannot write the starter there: ${(error as Error).message}`, 'INIT_EXISTS'), io);
    }
    if (error instanceof ConfigError) return reportError(error, io);
    return reportError(
      new ConfigError(
        { file: dir ?? '.' },
        `cannot write the starter there: ${(error as Error).message}; expected a folder agentcheck may create and write`,
        'INIT_NOT_WRITABLE',
      ),
      io,
    );
  }
  const where = relative(io.cwd, target) || '.';
  io.stdout.write(`Wrote ${Object.keys(STARTER_FILES).map(shown).join(', ')}\n`);
  // From inside the folder, as the starter README's commands are written (`.`, `reports/`), so
  // both work as printed and the starter's config applies.
  // A name starting with `-` would read as cd's option: `cd -- -dash`.
  const cd = where === '.' ? '' : `cd ${where.startsWith('-') ? '-- ' : ''}${shellWord(where)} && `;
  io.stdout.write(`Next: ${cd}npx agentcheck validate . && npx agentcheck run . (see ${shown('README.md')})\n`);
  return EXIT.ok;
}

/**
 * The first of agent-tests, agent-tests-2, ... (from `cwd`) that init would write: nothing there
 * yet, or a folder holding none of the starter's files (not a file, nor a link to nothing).
 */
function freeFolder(cwd: string): string {
  for (let n = 1; ; n++) {
    const name = n === 1 ? 'agent-tests' : `agent-tests-${n}`;
    if (usableFolder(join(cwd, name))) return name;
  }
}

function usableFolder(path: string): boolean {
  // Nothing there at all (lstat: a link to nothing is something, which init could not make a folder of).
  if (lstatSync(path, { throwIfNoEntry: false }) === undefined) return true;
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true && !Object.keys(STARTER_FILES).some((file) => existsSync(join(path, file)));
}
