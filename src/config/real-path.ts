import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';

/** How many symlinks one path may pass through before we call it a loop (Linux uses 40). */
const MAX_LINK_HOPS = 40;

/** A path that passes through a symlink loop (or more links than Linux follows). */
export class SymlinkLoop extends Error {
  constructor(readonly target: string) {
    super(`too many levels of symlinks at ${target}`);
    this.name = 'SymlinkLoop';
  }
}

/** Where a path really is (realPathAllowMissing). */
export interface RealPath {
  /** The real path, missing names appended under their nearest existing part. */
  path: string;
  /** Whether some part of the path does not exist. */
  missing: boolean;
  /** The real path of the nearest part that exists. */
  existing: string;
}

/**
 * The real path of `target`, also when it (or its tail) does not exist yet: the nearest existing
 * ancestor is realpath'd and the missing names appended. A dangling symlink is followed by hand,
 * so a link whose target is missing still says where it leads (outside the workspace, say): the
 * workspace sandbox and the `file` check use it alike (docs/security.md). Only links are read on
 * the way, never the target itself. `existing` is the real path of the nearest part that exists
 * (the path itself unless missing): a missing path under a file rather than a folder is the
 * OS's ENOTDIR, not ENOENT. Throws SymlinkLoop for a loop; other file system errors as they come.
 */
export function realPathAllowMissing(target: string, hops = 0): RealPath {
  const tail: string[] = [];
  let current = target;
  for (;;) {
    try {
      const existing = realpathSync.native(current);
      return { path: path.join(existing, ...tail), missing: tail.length > 0, existing };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ELOOP') throw new SymlinkLoop(target);
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
    }
    const link = lstatOrUndefined(current);
    if (link?.isSymbolicLink()) {
      if (hops >= MAX_LINK_HOPS) throw new SymlinkLoop(target);
      const linkTarget = path.resolve(path.dirname(current), readlinkSync(current));
      const followed = realPathAllowMissing(path.join(linkTarget, ...tail), hops + 1);
      return { ...followed, missing: true };
    }
    const parent = path.dirname(current);
    if (parent === current) return { path: path.join(current, ...tail), missing: true, existing: current };
    tail.unshift(path.basename(current));
    current = parent;
  }
}

function lstatOrUndefined(file: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(file);
  } catch {
    return undefined;
  }
}
