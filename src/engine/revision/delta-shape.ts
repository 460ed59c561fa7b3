/**
 * Whether a document's value is a delta `{set, remove}` (only those keys, at least one): given
 * where an agent build or a scenario file is expected, it is named as what it is.
 */
export function isDeltaShape(value: unknown): boolean {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((key) => key === 'set' || key === 'remove');
}
