import { readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, normalize, resolve, sep } from 'node:path';
import type { Locator } from '../../config/assert-format.js';
import { asList, checkSchema, objectParams, PARAM } from '../check-params.js';
import { result, type Check } from './check.js';
import { show } from '../describe.js';

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
    if (full !== root && !full.startsWith(root + sep)) return result(KIND, id, 'error', `${params.path} is outside the workspace`);
    let size: number | null = null;
    let folder = false;
    let special: string | null = null;
    try {
      const stat = statSync(full);
      size = stat.isFile() ? stat.size : null;
      folder = stat.isDirectory();
      // A pipe, socket or device the agent made exists, but has no text to read (reading a pipe would block).
      if (!stat.isFile() && !folder) special = stat.isFIFO() ? 'a named pipe' : stat.isSocket() ? 'a socket' : 'a device';
    } catch {
      size = null;
    }
    const wantExists = params.exists ?? true;
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
    if (!wantExists) return result(KIND, id, 'fail', `expected ${params.path} not to exist; it does (${size} bytes)`);
    // A symlink the agent left behind must not let a check read outside the workspace.
    const real = realpathSync(full);
    const realRoot = realpathSync(root);
    if (real !== realRoot && !real.startsWith(realRoot + sep)) return result(KIND, id, 'error', `${params.path} links outside the workspace`);
    if (size > MAX_FILE_BYTES) return result(KIND, id, 'error', `${params.path} is ${size} bytes; file checks read at most ${MAX_FILE_BYTES}`);
    const text = readFileSync(full, 'utf8');
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
