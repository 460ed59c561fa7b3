import { setOwn } from '../../config/own-key.js';
/**
 * Fills omitted arguments from the `default`s of a tool's `parameters` schema, so every tool
 * kind (http templates, commands, chains, plans, built-ins) sees the value the schema promises.
 * Top-level properties get their default when absent; an object argument that is given is
 * filled the same way from its own `properties`. Returns a new object; `args` is not changed.
 */
export function withSchemaDefaults(schema: unknown, args: Record<string, unknown>): Record<string, unknown> {
  const properties = propertiesOf(schema);
  if (!properties) return args;
  let out: Record<string, unknown> | undefined;
  const set = (key: string, value: unknown) => {
    out ??= { ...args };
    setOwn(out, key, value);
  };
  for (const [key, property] of Object.entries(properties)) {
    if (!isRecord(property)) continue;
    if (!Object.hasOwn(args, key)) {
      if (property.default !== undefined) set(key, structuredClone(property.default));
      continue;
    }
    const given = args[key];
    if (isRecord(given) && propertiesOf(property)) {
      const filled = withSchemaDefaults(property, given);
      if (filled !== given) set(key, filled);
    }
  }
  return out ?? args;
}

function propertiesOf(schema: unknown): Record<string, unknown> | undefined {
  return isRecord(schema) && isRecord(schema.properties) ? schema.properties : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
