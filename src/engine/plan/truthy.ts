/**
 * STEP truthiness (docs/workflows.md, STEP plans): false for `false`, `null`, `undefined`, `0`, `""`, `[]` and
 * `{}`; true for everything else. Unlike JavaScript, empty arrays and objects are false, so
 * `if_else` on a search result reads "if anything was found".
 */
export function isTruthy(value: unknown): boolean {
  if (value === false || value === null || value === undefined || value === 0 || value === '') return false;
  if (Number.isNaN(value)) return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}
