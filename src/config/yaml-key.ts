/** The string a YAML map key stands for (the key of the JS object the map becomes). */
export function keyOf(key: unknown): string | undefined {
  if (key && typeof key === 'object' && 'value' in key) return String((key as { value: unknown }).value);
  return key === undefined || key === null ? undefined : String(key);
}
