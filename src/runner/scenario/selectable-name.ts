/**
 * Whether a name can be selected with a flag that takes comma lists (`--tag`, `--variant`): not
 * empty, no surrounding spaces (the flag trims them), and none of `forbidden` (a comma splits it).
 */
export function isSelectableName(name: string, forbidden: RegExp = /,/): boolean {
  return name.trim() !== '' && name === name.trim() && !forbidden.test(name);
}
