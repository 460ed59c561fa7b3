import { quoteCapped } from './cap-text.js';
import { didYouMean } from './did-you-mean.js';
import { forEachSubschema } from './for-each-subschema.js';
import type { SchemaPartProblem } from './schema-default-problems.js';
import { standardFormatNames } from './standard-formats.js';

/**
 * The `format`s of a tool's `parameters` that name no standard format. Arguments are checked
 * against the standard formats only, so an unknown name (a typo, a made-up one) would check
 * nothing: refused at load in an agent build (docs/formats.md, Tools). A server's schema (MCP)
 * is not held to this; its unknown formats are ignored.
 */
export function unknownFormatProblems(root: Record<string, unknown>): SchemaPartProblem[] {
  const used: Array<{ path: SchemaPartProblem['path']; name: string }> = [];
  forEachSubschema(root, (schema, path) => {
    if (typeof schema.format === 'string') used.push({ path: [...path, 'format'], name: schema.format });
  });
  // The list loads only when some schema uses `format`.
  if (!used.length) return [];
  const known = standardFormatNames();
  return used
    .filter(({ name }) => !known.includes(name))
    .map(({ path, name }) => ({ path, expected: `unknown format ${quoteCapped(name)}${didYouMean(name, known)}; expected one of: ${known.join(', ')}` }));
}
