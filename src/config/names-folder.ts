/**
 * Whether a workspace-relative path ends in "/" or "/." (or is "." or empty): it names a folder,
 * so a file there is not what it names (docs/formats.md: the file tools say fs_enotdir).
 */
export function namesFolder(relativePath: string): boolean {
  const last = relativePath.split('/').at(-1);
  return last === '' || last === '.';
}
