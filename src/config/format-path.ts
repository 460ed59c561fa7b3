import { hasUnprintable, quoteText } from './quote-text.js';

/** A JSON path as segments: `['agent', 'tools', 2, 'http']` is `agent.tools[2].http`. */
export type PathSegments = ReadonlyArray<string | number>;

/**
 * `['agent', 'tools', 2, 'http']` -> `agent.tools[2].http`. A key is written after a dot when it
 * reads there as written in agentcheck's path notation (docs/formats.md, Deltas: a delta's path
 * key, `agent.tools[name=x].permission`, reads as the path it is); any other is quoted as a value
 * is, in brackets: an empty key (`tools[""]`, never `tools.`), one with white space, a quote, a
 * stray dot or bracket (`env["BAD NAME"]`, `headers["a."]`), and one holding a control character
 * or a bidi override (a scenario file's own key, `["\u001b[2J"]`): a path is printed, and raw it
 * could clear or recolour the terminal or make a key read as another.
 */
export function formatPath(path: PathSegments): string {
  let out = '';
  for (const segment of path) out = typeof segment === 'number' ? `${out}[${segment}]` : joinPathKey(out, segment);
  return out;
}

/** Names joined by single dots, each followed by any `[selector]`s: `a`, `a.b`, `tools[name=x].http`. */
const NAME = '[^\\s.[\\]"]+';
const SELECTOR = '\\[[^\\s[\\]"]+\\]';
const READS_AS_WRITTEN = new RegExp(`^${NAME}(?:${SELECTOR})*(?:\\.${NAME}(?:${SELECTOR})*)*$`);

/** `path` (as formatPath writes one, or '') followed by the key `key`, written as formatPath writes it. */
export function joinPathKey(path: string, key: string): string {
  if (!READS_AS_WRITTEN.test(key) || hasUnprintable(key)) return `${path}[${quoteText(key)}]`;
  return path ? `${path}.${key}` : key;
}
