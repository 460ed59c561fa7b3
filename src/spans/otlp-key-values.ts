import { ConfigError } from '../config/errors.js';
import { setOwn } from '../config/own-key.js';

/**
 * Parses `key1=value1,key2=value2` with percent-encoded values, the form the OpenTelemetry
 * specification uses for OTEL_EXPORTER_OTLP_HEADERS and OTEL_RESOURCE_ATTRIBUTES. Errors name the
 * entry's position only: a value may be a secret.
 */
export function parseKeyValueList(raw: string | undefined, source: string, validKey: RegExp, expected: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!raw?.trim()) return out;
  raw.split(',').forEach((entry, index) => {
    if (!entry.trim()) return;
    const eq = entry.indexOf('=');
    const key = eq > 0 ? entry.slice(0, eq).trim() : '';
    if (!validKey.test(key)) throw new ConfigError({ file: source }, `entry ${index + 1} is not key=value with a valid ${expected}`);
    let value = entry.slice(eq + 1).trim();
    try {
      value = decodeURIComponent(value);
    } catch {
      throw new ConfigError({ file: source }, `entry ${index + 1} ("${key}") has a malformed percent-encoded value`);
    }
    setOwn(out, key, value);
  });
  return out;
}
