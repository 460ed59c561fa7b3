/**
 * Orders strings by their UTF-16 code units, as `Array.prototype.sort` does by default: the same
 * order on every machine whatever its locale (localeCompare's follows the locale, and its first
 * call loads ICU's collation data, about 5 ms of a CLI start). `B` comes before `a`.
 */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
