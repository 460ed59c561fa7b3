import { createRequire } from 'node:module';
import type { Ajv } from 'ajv';

/**
 * The standard JSON Schema formats tool arguments are checked against (docs/formats.md, Tools):
 * ajv-formats in its default "full" mode, the RFC-exact checks (email, date-time, uri, uuid, ...).
 * The package is loaded on first use only, never at start-up: most commands validate no tool
 * arguments, and `--help` must stay fast.
 */

/** Names how formats are checked; part of the schema cache key, so a change never meets stale code. */
export const STANDARD_FORMATS_MODE = 'ajv-formats full';

const require = createRequire(import.meta.url);

/** Adds the standard formats to `ajv` (and the cached standalone code requires them by name). */
export function addStandardFormats(ajv: Ajv): void {
  (require('ajv-formats') as (ajv: Ajv) => Ajv)(ajv);
}

/** The names of the standard formats. */
export function standardFormatNames(): readonly string[] {
  return (require('ajv-formats/dist/formats') as { formatNames: readonly string[] }).formatNames;
}
