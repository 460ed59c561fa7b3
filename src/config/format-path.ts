import { hasUnprintable, quoteText } from './quote-text.js';

/** A JSON path as segments: `['agent', 'tools', 2, 'http']` is `agent.tools[2].http`. */
export type PathSegments = ReadonlyArray<string | number>;

/**
 * `['agent', 'tools', 2, 'http']` -> `agent.tools[2].http`. A key holding a control character or a
 * bidi override (a scenario file's own key) is quoted as a value is, `["\u001b[2J"]`: a path is
 * printed, and raw it could clear or recolour the terminal or make a key read as another.
 */
export function formatPath(path: PathSegments): string {
  let out = '';
  for (const segment of path) out = typeof segment === 'number' ? `${out}[${segment}]` : joinPathKey(out, segment);
  return out;
}

/** `path` (as formatPath writes one, or '') followed by the key `key`, written as formatPath writes it. */
export function joinPathKey(path: string, key: string): string {
  if (hasUnprintable(key)) return `${path}[${quoteText(key)}]`;
  return path ? `${path}.${key}` : key;
}
