import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { compareCodeUnits } from '../config/code-unit-order.js';

/** Most files a skill folder may hold: a ref pointed at a repository root should fail, not crawl it. */
export const MAX_SKILL_FILES = 1000;

/** The files found in a skill folder and the folders walked to find them (for cache checks). */
export interface SkillFolderListing {
  /** Sorted folder-relative paths with '/' separators, SKILL.md at the top level excluded. */
  files: string[];
  /** mtime of the folder and of every sub-folder walked, taken before each was read. */
  dirMtimes: Map<string, number>;
}

/**
 * Lists a skill folder recursively. Symbolic links are listed as files and never followed,
 * so a link cycle cannot hang a run. Returns null when there are more than MAX_SKILL_FILES.
 */
export function listSkillFiles(root: string): SkillFolderListing | null {
  const files: string[] = [];
  const dirMtimes = new Map<string, number>();
  const pending: Array<{ abs: string; rel: string }> = [{ abs: root, rel: '' }];
  while (pending.length > 0) {
    const { abs, rel } = pending.pop()!;
    // Stat before reading, so a change made while we list makes the cache entry stale, not wrong.
    dirMtimes.set(abs, statSync(abs).mtimeMs);
    for (const entry of readdirSync(abs, { withFileTypes: true })) {
      const relPath = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        pending.push({ abs: join(abs, entry.name), rel: relPath });
      } else if (relPath !== 'SKILL.md') {
        files.push(relPath);
        if (files.length > MAX_SKILL_FILES) return null;
      }
    }
  }
  files.sort(compareCodeUnits);
  return { files, dirMtimes };
}
