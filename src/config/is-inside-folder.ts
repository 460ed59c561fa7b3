import { isAbsolute, relative, sep } from 'node:path';

/** Whether `candidate` is `folder` itself or lies under it (absolute paths; `..foo` is a name, not a way out). */
export function isInsideFolder(folder: string, candidate: string): boolean {
  const rel = relative(folder, candidate);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}
