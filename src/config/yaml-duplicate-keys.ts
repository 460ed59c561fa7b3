import type { LineCounter, Node } from 'yaml';
import { ConfigError } from './errors.js';
import { formatPath } from './format-path.js';
import { yaml } from './located-yaml.js';

/** A key given twice in one mapping: where the second one is, and the line of the first. */
export interface DuplicateKey {
  key: string;
  path: Array<string | number>;
  line?: number;
  column?: number;
  firstLine: number;
}

/**
 * Every key given twice in one mapping of a YAML text (yaml's own "Map keys must be unique" names
 * neither the key nor its path, and stops at the first), so one pass lists them all.
 */
export function yamlDuplicateKeys(text: string): DuplicateKey[] {
  const { LineCounter, parseDocument, isMap, isScalar, isSeq } = yaml();
  const lines: LineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: false, resolveKnownTags: false });
  const found: DuplicateKey[] = [];
  const walk = (node: unknown, path: Array<string | number>): void => {
    if (isMap(node)) {
      const first = new Map<string, number>();
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        const start = (pair.key as Node | null)?.range?.[0];
        const pos = start === undefined ? undefined : lines.linePos(start);
        const earlier = first.get(key);
        if (earlier !== undefined) found.push({ key, path: [...path, key], line: pos?.line, column: pos?.col, firstLine: earlier });
        else if (pos) first.set(key, pos.line);
        walk(pair.value, [...path, key]);
      }
    } else if (isSeq(node)) node.items.forEach((item, index) => walk(item, [...path, index]));
  };
  walk(doc.contents, []);
  return found;
}

/** Every key of the text given twice, each at its path (docs/formats.md), or `fallback` when none is found. */
export function duplicateKeyErrors(file: string, text: string, fallback: ConfigError): ConfigError[] {
  const found = yamlDuplicateKeys(text);
  if (!found.length) return [fallback];
  return found.map(
    (dup) =>
      new ConfigError(
        { file, line: dup.line, column: dup.column, path: formatPath(dup.path) || undefined },
        `the key "${dup.key}" is given twice in one mapping (first at line ${dup.firstLine}); remove one`,
        'CONFIG_SYNTAX',
      ),
  );
}
