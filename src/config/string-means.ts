import { quoteCapped } from './cap-text.js';

/**
 * The annotation keyword a format schema of an object puts on it when a bare string is a likely
 * slip for one of its keys (`calls: [refund]` for `calls: [{tool: refund}]`): the type error
 * then shows the object's keys and how to write the string (docs/cli.md, validate).
 */
export const STRING_MEANS = 'stringMeans';

/**
 * "an object {tool, args?, args_mode?}" and, for a string, "(write {tool: refund})": the words of
 * a type error at an object schema that carries STRING_MEANS; undefined for any other schema.
 */
export function objectShapeWords(schema: unknown, value: unknown): { expected: string; hint: string } | undefined {
  if (!schema || typeof schema !== 'object') return undefined;
  const { properties, required, [STRING_MEANS]: key } = schema as { properties?: object; required?: unknown; [STRING_MEANS]?: unknown };
  if (typeof key !== 'string' || !properties) return undefined;
  const hint = typeof value === 'string' ? ` (write {${key}: ${flowScalar(value)}})` : '';
  return { expected: objectWords(properties, Array.isArray(required) ? required : []), hint };
}

/** "an object {tool, args?, args_mode?}": an object schema's keys, optional ones marked with `?`. */
export function objectWords(properties: object, required: readonly unknown[]): string {
  const keys = Object.keys(properties).map((name) => (required.includes(name) ? name : `${name}?`));
  return `an object {${keys.join(', ')}}`;
}

/** A string as it can stand in a YAML flow mapping: plain when it is a simple name, else quoted. */
function flowScalar(text: string): string {
  return /^[A-Za-z_][\w.-]*$/.test(text) ? text : quoteCapped(text);
}
