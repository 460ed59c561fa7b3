/**
 * Plain objects keyed by names from user data (a tool, a component, a key of a file): each name
 * is data, never a member of Object.prototype. JSON.parse and the YAML parser keep a key named
 * `__proto__` as an own key; these keep it so too.
 */

/** `record[key]` when `key` is the record's own; undefined for a name it only inherits (`constructor`, `toString`, `__proto__`). */
export function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** Sets `record[key]` as an own data property: a key named `__proto__` stays a key, never the record's prototype. */
export function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__') Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  else record[key] = value;
}
