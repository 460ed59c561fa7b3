import { danglingLinkWords } from '../../config/dangling-link.js';
import { statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { ConfigError } from '../../config/errors.js';
import { readUpTo } from '../../config/read-up-to.js';
import { specialFileProblem } from '../../config/special-file.js';
import { MAX_CONFIG_BYTES, SourceDocument } from '../../config/source.js';
import { SCENARIO_FILE } from '../scenario/discover.js';
import { SUITE_CONFIG_FILE } from '../scenario/scenario-file-name.js';
import { BUILD_KEYS, hasBuildKey, hasIdKey, isAgentBuildShape } from '../scenario/build-shape.js';
import { RealFileSet } from '../files/real-file-set.js';
import { walkFiles } from '../files/walk-files.js';
import { toProblem, type FileKind, type ValidationProblem } from './validation-report.js';

/** A file to check: its kind when its name says it, and whether it was named on the command line. */
export interface CollectedFile {
  file: string;
  kind: FileKind | null;
  named?: boolean;
  /** The folder given on the command line it was found under. */
  folder?: string;
}

/**
 * Files under the paths, a problem for each path that does not exist, and the folders given (to
 * tell one that holds no agentcheck file); a file named explicitly is always validated (as what
 * `run` takes it for when its name does not say).
 */
export function collect(paths: readonly string[], cwd: string): { files: CollectedFile[]; missing: ValidationProblem[]; folders: string[] } {
  const out: CollectedFile[] = [];
  const missing: ValidationProblem[] = [];
  const folders: string[] = [];
  // Each real file once, as run reads it: two paths, or a link, may reach one file twice.
  const seen = new RealFileSet();
  // A named pipe, socket or device is a problem found by stat, never opened (it would block), as run refuses it.
  const regular = (file: string): boolean => {
    const special = specialFileProblem(file, kindByName(file) === 'scenario' ? 'a scenario file' : 'an agentcheck file');
    if (special) missing.push(toProblem(special, file));
    return !special;
  };
  for (const given of paths) {
    const path = resolve(cwd, given);
    let stats;
    try {
      stats = statSync(path);
    } catch {
      // Named as it was given (an absolute path stays absolute, not ../../x).
      const link = danglingLinkWords(path);
      missing.push(toProblem(new ConfigError({ file: given }, link ? `is ${link}` : 'path not found', 'CONFIG_NOT_FOUND'), given));
      continue;
    }
    if (stats.isDirectory()) {
      const files = walkFiles(path, (name) => /\.(ya?ml|json)$/.test(name) || name === 'SKILL.md');
      folders.push(given);
      const ownFiles = filesOfOtherSkills(path, files);
      for (const file of files) {
        if (!ownFiles.has(file) && seen.add(file) && regular(file)) out.push({ file, kind: kindByName(file), folder: given });
      }
    } else if (seen.add(path) && regular(path)) out.push({ file: path, kind: kindByName(path), named: true });
  }
  return { files: out, missing, folders };
}

/**
 * The SKILL.md files a walk of `root` found below another found skill's folder: each is one of
 * that skill's files, which travel with it unread (docs/skills.md), not a skill of its own, as
 * `run` delivers it. Only folders inside the walk count, so a folder given is its own root.
 */
function filesOfOtherSkills(root: string, files: readonly string[]): Set<string> {
  const skillFolders = new Set(files.filter((file) => basename(file) === 'SKILL.md').map((file) => dirname(file)));
  const inner = new Set<string>();
  for (const folder of skillFolders) {
    // Up to the walk's root; a folder outside it (reached through a link) stops at the file system's root.
    for (let above = folder; relative(root, above) !== '' && dirname(above) !== above;) {
      above = dirname(above);
      if (skillFolders.has(above)) {
        inner.add(join(folder, 'SKILL.md'));
        break;
      }
    }
  }
  return inner;
}

function kindByName(file: string): FileKind | null {
  const name = basename(file);
  if (SCENARIO_FILE.test(name)) return 'scenario';
  if (name === 'SKILL.md') return 'skill';
  if (SUITE_CONFIG_FILE.test(name)) return 'config';
  return null;
}

/** Other YAML/JSON files count as agent builds when they look like one (`id` and `agent` at the top). */
export function detect(file: string): FileKind | null {
  let value: unknown;
  try {
    value = SourceDocument.read(file, { problems: 'keep' }).value;
  } catch (error) {
    // Not ours to judge (a file that is not an agentcheck file may be any YAML), unless its text
    // shows a build's top-level keys: then its syntax error is the problem to report, not a skip.
    if (looksLikeBuild(file)) throw error;
    return null;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value) || !hasIdKey(value)) return null;
  // An `id` beside an agent-build key (or a near miss of `agent`, e.g. a typo) is an agent build to
  // validate, so a misspelled build is reported rather than skipped.
  return hasBuildKey(value) ? 'agent' : null;
}

/** A file named on the command line whose name does not say its kind: what `run` takes it for. */
export function namedKind(file: string): FileKind {
  return isAgentBuildShape(SourceDocument.read(file, { problems: 'keep' }).value) ? 'agent' : 'scenario';
}

/** `id:` and a build key at the start of lines (or as JSON keys): the text of an agent build, parsed or not. */
function looksLikeBuild(file: string): boolean {
  let text: string;
  try {
    // A file too large to load still shows its first keys.
    text = readUpTo(file, statSync(file), MAX_CONFIG_BYTES).toString('utf8');
  } catch {
    return false;
  }
  const key = (name: string) => new RegExp(`^(?:${name}|"${name}")\\s*:|[{,]\\s*"${name}"\\s*:`, 'm').test(text);
  return key('id') && [...BUILD_KEYS].some(key);
}
