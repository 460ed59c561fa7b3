import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { isSpanRecord } from '../../spans/span-record-check.js';
import { ConfigError } from '../../config/errors.js';
import { isInsideFolder } from '../../config/is-inside-folder.js';
import type { Revision } from '../../engine/revision/types.js';
import { isSameFile } from '../files/same-file.js';
import { realPathOf } from '../files/walk-files.js';
import { buildReadPlaces } from './build-read-files.js';

/** What a --spans path that names an input file is told after naming it, unless the command says otherwise. */
const OVERWRITE = 'the spans would overwrite it: give another file';

/**
 * Refuses a --spans path (`spans`, as given, relative to `cwd`) that names one of the command's
 * input files, also under another name through a symbolic or hard link (docs/cli.md, test-run
 * and resume). `inputs` maps how each file is named (`the --agent file`) to its path, when given;
 * `consequence` ends the message.
 */
export function refuseSpansOverInputs(spans: string, cwd: string, inputs: Readonly<Record<string, string | undefined>>, consequence = OVERWRITE): void {
  const spansPath = resolve(cwd, spans);
  for (const [what, given] of Object.entries(inputs)) {
    // A hard link to the build is the build under another name: writing the spans would overwrite it.
    if (given !== undefined && isSameFile(resolve(cwd, given), spansPath)) {
      throw new ConfigError({ file: spans }, `--spans names ${what}; ${consequence}`, 'OUT_NOT_WRITABLE');
    }
  }
}

/**
 * Refuses a --spans path that is a file the build that runs reads (an external agent's or MCP
 * server's command file, a command tool's file named by an absolute path) or lies in one of its
 * skill folders (docs/cli.md, test-run).
 */
export function refuseSpansOverBuildReads(spans: string, cwd: string, revision: Revision): void {
  const spansPath = resolve(cwd, spans);
  const { files, folders } = buildReadPlaces(revision.build, revision.source);
  for (const file of files) {
    if (isSameFile(file.path, spansPath)) {
      throw new ConfigError({ file: spans }, `--spans names the ${file.what} file, which the run reads; ${OVERWRITE}`, 'OUT_NOT_WRITABLE');
    }
  }
  const real = realPathOf(spansPath);
  for (const folder of folders) {
    if (isInsideFolder(realPathOf(folder.path), real)) {
      throw new ConfigError(
        { file: spans },
        `--spans is inside the skill folder of ${folder.what}, which the run reads: give a file outside it`,
        'OUT_NOT_WRITABLE',
      );
    }
  }
}

/** How much of a file is read to find its first line: a span line with a long result stays under it. */
const FIRST_LINE_BYTES = 4 * 1024 * 1024;

/**
 * Refuses, for `resume` (which appends), a --spans path naming a regular file that already holds
 * something other than spans: its first line must be a span record. A file test-run read (its
 * --delta, --script or --mocks) is not recorded in the checkpoint, so this is what keeps the
 * resumed run's spans from being appended to it (docs/cli.md, resume).
 */
export function refuseAppendToNonSpansFile(spans: string, cwd: string): void {
  const path = resolve(cwd, spans);
  let first: string;
  try {
    if (!statSync(path).isFile()) return;
    const fd = openSync(path, 'r');
    try {
      const buffer = Buffer.alloc(Math.min(FIRST_LINE_BYTES, fstatSync(fd).size));
      const read = readSync(fd, buffer, 0, buffer.length, 0);
      first = buffer.subarray(0, read).toString('utf8').split('\n', 1)[0];
    } finally {
      closeSync(fd);
    }
  } catch {
    return; // Not there yet (a new file), or unreadable: the write says why.
  }
  if (first.trim() === '') return;
  let value: unknown;
  try {
    value = JSON.parse(first);
  } catch {
    value = undefined;
  }
  if (isSpanRecord(value)) return;
  throw new ConfigError(
    { file: spans },
    "--spans names a file that holds no spans (its first line is not a span record), and resume appends the resumed run's spans to it: give the --spans file test-run wrote, or a new file",
    'OUT_NOT_WRITABLE',
  );
}
