import { lstatSync, readlinkSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { quoteCapped } from './cap-text.js';

/**
 * How a message says that `path`, which stat found nothing at, is a symbolic link to nothing:
 * `a symbolic link to nothing: its target "../x" ("/abs/x") does not exist`, naming the target as
 * written and, when relative, where it leads; undefined when `path` is no link (nothing is there).
 */
export function danglingLinkWords(path: string): string | undefined {
  let target: string;
  try {
    if (!lstatSync(path).isSymbolicLink()) return undefined;
    target = readlinkSync(path);
  } catch {
    return undefined;
  }
  const leads = isAbsolute(target) ? '' : ` (${quoteCapped(resolve(dirname(path), target))})`;
  return `a symbolic link to nothing: its target ${quoteCapped(target)}${leads} does not exist`;
}
