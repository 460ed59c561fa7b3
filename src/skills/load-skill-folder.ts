import { quoteCapped } from '../config/cap-text.js';
import { readdirSync, readFileSync, statSync, type Stats } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { danglingLinkWords } from '../config/dangling-link.js';
import { ConfigError } from '../config/errors.js';
import { MAX_CONFIG_BYTES } from '../config/source.js';
import { specialFileKind } from '../config/special-file.js';
import { utf8Text } from '../config/utf8-text.js';
import { listSkillFiles, MAX_SKILL_FILES } from './list-skill-files.js';
import { noteLoadedSkillFolder } from './loaded-skill-folders.js';
import { parseSkillMd } from './parse-skill-md.js';
import type { SkillReference } from './skill-entry.js';
import type { SkillPackage } from './skill-package.js';

interface CacheEntry {
  skill: SkillPackage;
  skillMdMtime: number;
  skillMdSize: number;
  /** mtime of every folder walked: adding, removing or renaming a file changes its folder's mtime. */
  dirMtimes: Map<string, number>;
}

// Suites run thousands of scenarios against the same few skills; a few stats per load replace
// re-reading and re-parsing. Keyed by absolute folder path, checked against mtimes on every hit.
const cache = new Map<string, CacheEntry>();

/**
 * Loads a skill folder (SKILL.md plus the files that travel with it). A missing folder or
 * SKILL.md is a ConfigError located at `referencedFrom` (the `ref` that named the folder);
 * errors inside SKILL.md point at SKILL.md itself. Results are cached by path and mtime.
 */
export function loadSkillFolder(dir: string, referencedFrom?: SkillReference): SkillPackage {
  const root = resolve(dir);
  const at: SkillReference = referencedFrom ?? { file: root };
  const skillMd = join(root, 'SKILL.md');
  const folder = statOrNull(root, at);
  if (!folder) {
    // Only a ref in a file is relative to that file; a folder given directly (--overlay) is not.
    const hint = referencedFrom ? ' (a ref is relative to the file that holds it)' : '';
    const dangling = danglingLinkWords(root);
    const what = dangling ? `is ${dangling}` : 'does not exist';
    throw notFound(at, `skill folder ${quoteCapped(root)} ${what}; expected a folder that holds SKILL.md${hint}`);
  }
  if (!folder.isDirectory()) {
    // A ref is pointed elsewhere; a folder given directly (--overlay, skills.forced) is given again.
    const advice = referencedFrom ? 'point the ref at the folder that holds SKILL.md, not at the file' : 'give the folder that holds SKILL.md, not the file';
    const hint = basename(root) === 'SKILL.md' ? `; ${advice}` : '';
    // Never opened either: a named pipe is said as one, as every reader says it (special-file.ts).
    const kind = folder.isFile() ? 'a file' : `${specialFileKind(folder)}, not a folder`;
    throw notFound(at, `${quoteCapped(root)} is ${kind}; expected a skill folder that holds SKILL.md${hint}`);
  }
  const file = statOrNull(skillMd, at);
  // A link whose target is gone is there (the case hint would find it), and is said as what it is.
  const dangling = file ? undefined : danglingLinkWords(skillMd);
  if (dangling) {
    throw notFound(at, `${quoteCapped(skillMd)} is ${dangling}; expected SKILL.md with front matter (name, description) and a Markdown body`);
  }
  if (!file) {
    throw notFound(
      at,
      `skill folder ${quoteCapped(root)} has no SKILL.md; expected SKILL.md with front matter (name, description) and a Markdown body${caseHint(root)}`,
    );
  }
  if (!file.isFile()) {
    // Never opened: a named pipe would block the read for ever.
    const kind = file.isDirectory() ? 'a folder' : specialFileKind(file);
    throw notFound(
      at,
      `${quoteCapped(skillMd)} is ${kind}, not a regular file; expected SKILL.md to be a file with front matter (name, description) and a Markdown body`,
    );
  }

  const hit = cache.get(root);
  if (hit && isFresh(hit, file)) {
    noteLoadedSkillFolder(root);
    return hit.skill;
  }

  if (file.size > MAX_CONFIG_BYTES) {
    throw new ConfigError({ file: skillMd }, `is ${file.size} bytes; SKILL.md is limited to ${MAX_CONFIG_BYTES} bytes`, 'CONFIG_TOO_LARGE');
  }
  // A byte that is not UTF-8 is refused at its line:col, as in every other file kind, never delivered as U+FFFD.
  const text = utf8Text(
    guard({ file: skillMd }, 'could not be read', () => readFileSync(skillMd)),
    skillMd,
  );
  const parsed = parseSkillMd(skillMd, text);
  const listing = guard(at, 'could not list the skill folder', () => listSkillFiles(root));
  if (!listing) {
    throw new ConfigError(
      at,
      `skill folder ${quoteCapped(root)} holds more than ${MAX_SKILL_FILES} files; expected a small folder with SKILL.md and the files that travel with it`,
      'CONFIG_TOO_LARGE',
    );
  }

  const skill: SkillPackage = Object.freeze({
    name: parsed.name,
    description: parsed.description,
    body: parsed.body,
    disable_model_invocation: parsed.disable_model_invocation,
    dir: root,
    files: Object.freeze(listing.files),
    source: skillMd,
  });
  cache.set(root, { skill, skillMdMtime: file.mtimeMs, skillMdSize: file.size, dirMtimes: listing.dirMtimes });
  noteLoadedSkillFolder(root);
  return skill;
}

/** Forgets every cached skill folder (tests, and long-lived processes that edit skills). */
export function clearSkillFolderCache(): void {
  cache.clear();
}

function isFresh(entry: CacheEntry, skillMd: Stats): boolean {
  if (entry.skillMdMtime !== skillMd.mtimeMs || entry.skillMdSize !== skillMd.size) return false;
  for (const [path, mtime] of entry.dirMtimes) {
    if (statSync(path, { throwIfNoEntry: false })?.mtimeMs !== mtime) return false;
  }
  return true;
}

/** stat that maps "not there" to null and other failures (permissions) to a located error. */
function statOrNull(path: string, at: SkillReference): Stats | null {
  return guard(at, `could not read ${quoteCapped(path)}`, () => statSync(path, { throwIfNoEntry: false }) ?? null);
}

/** Turns file-system failures (permissions, I/O) into located ConfigErrors instead of crashes. */
function guard<T>(at: SkillReference, what: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw new ConfigError(at, `${what}: ${(error as Error).message}`, 'CONFIG_NOT_FOUND');
  }
}

function notFound(at: SkillReference, expected: string): ConfigError {
  return new ConfigError(at, expected, 'CONFIG_NOT_FOUND');
}

/** On case-sensitive file systems `skill.md` is not `SKILL.md`; say so instead of just "missing". */
function caseHint(root: string): string {
  let near: string | undefined;
  try {
    near = readdirSync(root).find((name) => name.toLowerCase() === 'skill.md');
  } catch {
    return '';
  }
  return near ? ` (found ${quoteCapped(near)}; the file must be named SKILL.md)` : '';
}
