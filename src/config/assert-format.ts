import { ConfigError } from './errors.js';
import { compileFormatSchema, describeSchemaError } from './json-schema.js';
import { formatPath, type PathSegments, type SourceDocument } from './source.js';

/** Builds a located ConfigError for a path relative to some value being validated. */
export type Locator = (path: PathSegments, expected: string, atKey?: boolean) => ConfigError;

/** A locator for values found at `base` inside `doc`. */
export function documentLocator(doc: SourceDocument, base: PathSegments = []): Locator {
  return (path, expected, atKey = false) => doc.error([...base, ...path], expected, 'CONFIG_INVALID', atKey);
}

/**
 * Validates `value` against one of agentcheck's format schemas, throwing a located
 * ConfigError for the first violation; `T` is the type generated from the schema.
 */
export function assertFormat<T = unknown>(schema: object, value: unknown, locate: Locator): asserts value is T {
  const validate = compileFormatSchema<T>(schema);
  if (validate(value)) return;
  const first = validate.errors?.[0];
  if (!first) return;
  const problem = describeSchemaError(first, value);
  throw locate(problem.path, problem.expected, problem.atKey);
}

/** A locator that knows no lines: for values built in memory. */
export function memoryLocator(file: string, base: PathSegments = []): Locator {
  return (path, expected) => {
    const full = [...base, ...path];
    return new ConfigError({ file, path: formatPath(full) || undefined }, expected);
  };
}
