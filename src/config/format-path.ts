import { hasUnprintable, quoteText } from './quote-text.js';

/**
 * A key that is itself a path in agentcheck's path notation: a delta's `set` key,
 * `agent.tools[name=x].permission` (docs/formats.md, Deltas). formatPath joins it as written
 * (joinKeyAsPath), where any other key holding a dot or a bracket is quoted in brackets. It reads
 * as its key wherever a key is looked up (`String(segment)`, `value[segment]`).
 */
export class PathKey {
  constructor(readonly key: string) {}

  toString(): string {
    return this.key;
  }
}

/** A JSON path as segments: `['agent', 'tools', 2, 'http']` is `agent.tools[2].http`. */
export type PathSegments = ReadonlyArray<string | number>;

/**
 * A path where a problem is said: PathSegments, where a delta's `set` key may be a PathKey (so
 * formatPath writes it as the path it is). What locates a problem takes one (Locator, SourceDocument.error).
 */
export type ShownPath = ReadonlyArray<string | number | PathKey>;

/**
 * `['agent', 'tools', 2, 'http']` -> `agent.tools[2].http`. A key is written after a dot when it
 * is a plain name; any other is quoted as a value is, in brackets: an empty key (`tools[""]`, never
 * `tools.`), one holding white space, a quote (`"`, `'` or a backquote), a dot or a bracket (`env["BAD NAME"]`,
 * `tools["x.y"]`, `tools["a[0]"]`: written out, it would read as a path of several keys), and one
 * holding a control character or a bidi override (a scenario file's own key, `["\u001b[2J"]`): a
 * path is printed, and raw it could clear or recolour the terminal or make a key read as another.
 * A PathKey (a delta's `set` key) is joined as the path it is: `set.agent.tools[name=x].permission`.
 */
export function formatPath(path: ShownPath): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out = `${out}[${segment}]`;
    else if (segment instanceof PathKey) out = joinKeyAsPath(out, segment.key);
    else out = joinPathKey(out, segment);
  }
  return out;
}

/**
 * A name a path can show after a dot: no white space, quote (`"`, `'` or a backquote), dot or
 * bracket. Each of these in a key written out would make it read as another path or a quoted text.
 */
const NAME = '[^\\s.[\\]"\'`]+';
const PLAIN_NAME = new RegExp(`^${NAME}$`);
/** Names joined by single dots, each followed by any `[selector]`s: `a`, `a.b`, `tools[name=x].http`. */
const SELECTOR = '\\[[^\\s[\\]"]+\\]';
const READS_AS_PATH = new RegExp(`^${NAME}(?:${SELECTOR})*(?:\\.${NAME}(?:${SELECTOR})*)*$`);

/** `path` (as formatPath writes one, or '') followed by the key `key`, written as formatPath writes it. */
export function joinPathKey(path: string, key: string): string {
  if (!PLAIN_NAME.test(key) || hasUnprintable(key)) return `${path}[${quoteText(key)}]`;
  return path ? `${path}.${key}` : key;
}

/**
 * `rest` (a path as formatPath writes one) under `base` (one too): `checkpoint` and
 * `["q'k"]` give `checkpoint["q'k"]`, `checkpoint` and `state.usage` give `checkpoint.state.usage`.
 * Either may be '' (the other is the whole path).
 */
export function joinPaths(base: string, rest: string): string {
  if (!base) return rest;
  if (!rest) return base;
  return rest.startsWith('[') ? `${base}${rest}` : `${base}.${rest}`;
}

/**
 * `path` followed by a key that is itself a path (a PathKey: a delta's `set` key), written as it
 * is when it reads as one in agentcheck's path notation; one that does not (a space, an empty
 * step, a control character) is quoted in brackets as any key is.
 */
function joinKeyAsPath(path: string, key: string): string {
  if (!READS_AS_PATH.test(key) || hasUnprintable(key)) return `${path}[${quoteText(key)}]`;
  return path ? `${path}.${key}` : key;
}
