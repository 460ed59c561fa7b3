import { readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, normalize, resolve } from 'node:path';
import { isInsideFolder } from '../../config/is-inside-folder.js';
import { namesFolder } from '../../config/names-folder.js';
import { realPathAllowMissing, SymlinkLoop } from '../../config/real-path.js';
import type { Locator } from '../../config/assert-format.js';
import { asList, checkSchema, objectParams, PARAM } from '../check-params.js';
import { result, type Check } from './check.js';
import { plural, show } from '../describe.js';

/** `file: {path, exists, contains, equals, not_contains}`; path relative to the run's workspace. */
export interface FileParams {
  path: string;
  exists?: boolean;
  contains?: string | string[];
  not_contains?: string | string[];
  equals?: string;
}

const KIND = 'file';
/** Larger files are not read whole: a check compares text, not build artifacts. */
const MAX_FILE_BYTES = 10 * 1024 * 1024;
const schema = objectParams(
  { path: { type: 'string', minLength: 1 }, exists: { type: 'boolean' }, contains: PARAM.texts, not_contains: PARAM.texts, equals: PARAM.text },
  ['path'],
);

/** A file (or folder) in the workspace after the run exists (default) or not; a file contains / equals text. */
export const file: Check<FileParams> = {
  kind: KIND,
  validate(params: unknown, locate: Locator): void {
    checkSchema(schema, params, locate);
    const p = params as FileParams;
    if (isAbsolute(p.path) || normalize(p.path).split(/[\\/]/)[0] === '..') {
      throw locate(['path'], `expected a path inside the workspace (relative, no leading ..), got "${p.path}"`);
    }
    if (p.exists === false && (p.contains !== undefined || p.not_contains !== undefined || p.equals !== undefined)) {
      throw locate(['exists'], 'exists: false cannot be combined with contains, not_contains or equals');
    }
  },
  run(params, evidence, id) {
    if (!evidence.workspace_dir) return result(KIND, id, 'error', `no workspace is known for this run; cannot check ${params.path}`);
    const root = resolve(evidence.workspace_dir);
    const full = resolve(root, params.path);
    if (!isInsideFolder(root, full)) return result(KIND, id, 'error', `${params.path} is outside the workspace`);
    // The sandbox's rule (docs/security.md): a link the agent left leading out of the workspace,
    // dangling or not, is an error in both modes, and its target is never looked at.
    const found = realPathIn(root, params.path);
    if ('error' in found) return result(KIND, id, 'error', found.error);
    let size: number | null = null;
    let folder = false;
    let special: string | null = null;
    if (found.path !== null) {
      try {
        const stat = statSync(found.path);
        size = stat.isFile() ? stat.size : null;
        folder = stat.isDirectory();
        // A pipe, socket or device the agent made exists, but has no text to read (reading a pipe would block).
        if (!stat.isFile() && !folder) special = stat.isFIFO() ? 'a named pipe' : stat.isSocket() ? 'a socket' : 'a device';
      } catch {
        size = null;
      }
    }
    const wantExists = params.exists ?? true;
    // A path ending in "/" (or "/.") names a folder, as in the file tools (fs_enotdir for a file):
    // `notes.txt/` is not the file notes.txt, though path.resolve drops the slash.
    if ((size !== null || special !== null) && namesFolder(params.path)) {
      const name = withoutTrailingSlash(params.path);
      const why = `${name} is ${special ?? 'a file'}, and a path ending in "${params.path.slice(name.length)}" names a folder`;
      return wantExists
        ? result(KIND, id, 'fail', `expected ${params.path} to exist in the workspace; it does not (${why})`)
        : result(KIND, id, 'pass', `${params.path} does not exist (${why})`);
    }
    if (special) {
      if (!wantExists) return result(KIND, id, 'fail', `expected ${params.path} not to exist; it does (${special})`);
      if (params.contains !== undefined || params.not_contains !== undefined || params.equals !== undefined) {
        return result(KIND, id, 'fail', `expected ${params.path} to be a file with the expected text; it is ${special}`);
      }
      return result(KIND, id, 'pass', `${params.path} exists (${special})`);
    }
    // A folder exists too ("the agent must not create build/"); only its text cannot be read.
    if (folder) {
      if (!wantExists) return result(KIND, id, 'fail', `expected ${params.path} not to exist; it does (a folder)`);
      if (params.contains !== undefined || params.not_contains !== undefined || params.equals !== undefined) {
        return result(KIND, id, 'fail', `expected ${params.path} to be a file with the expected text; it is a folder`);
      }
      return result(KIND, id, 'pass', `${params.path} exists (a folder)`);
    }
    if (size === null) {
      return wantExists
        ? result(KIND, id, 'fail', `expected ${params.path} to exist in the workspace; it does not`)
        : result(KIND, id, 'pass', `${params.path} does not exist`);
    }
    if (!wantExists) return result(KIND, id, 'fail', `expected ${params.path} not to exist; it does (${plural(size, 'byte')})`);
    if (size > MAX_FILE_BYTES) return result(KIND, id, 'error', `${params.path} is ${size} bytes; file checks read at most ${MAX_FILE_BYTES}`);
    const text = readFileSync(found.path as string, 'utf8');
    for (const part of asList(params.contains)) {
      if (!text.includes(part)) return result(KIND, id, 'fail', `expected ${params.path} to contain ${show(part)}; it holds ${show(text)}`);
    }
    for (const part of asList(params.not_contains)) {
      if (text.includes(part)) return result(KIND, id, 'fail', `expected ${params.path} not to contain ${show(part)}; it does`);
    }
    if (params.equals !== undefined && text !== params.equals) {
      return result(KIND, id, 'fail', `expected ${params.path} to equal ${show(params.equals)}; it holds ${show(text)}`);
    }
    return result(KIND, id, 'pass', `${params.path} exists${params.contains || params.equals !== undefined ? ' with the expected text' : ''}`);
  },
};

/** `notes.txt/.` and `notes.txt/` as `notes.txt`: the name a trailing "/" or "/." follows. */
function withoutTrailingSlash(relative: string): string {
  return relative.replace(/(?:\/\.?)+$/, '');
}

/**
 * Where `relative` really is inside the workspace `root` (null when nothing is there), or why the
 * check cannot say: a link on the path leads out of the workspace, or loops.
 */
function realPathIn(root: string, relative: string): { path: string | null } | { error: string } {
  try {
    const realRoot = realpathSync.native(root);
    const real = realPathAllowMissing(resolve(realRoot, relative));
    if (!isInsideFolder(realRoot, real.path)) return { error: `${relative} links outside the workspace` };
    return { path: real.missing ? null : real.path };
  } catch (error) {
    if (error instanceof SymlinkLoop) return { error: `${relative} is a symlink loop (too many levels of symlinks)` };
    return { error: `cannot check ${relative}: ${(error as Error).message}` };
  }
}
