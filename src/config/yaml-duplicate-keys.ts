import type { LineCounter, Node } from 'yaml';
import { ConfigError } from './errors.js';
import { formatPath } from './format-path.js';
import { yaml } from './located-yaml.js';
import { keyOf, walkYaml } from './yaml-key.js';

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
  const guards = yaml();
  const lines: LineCounter = new guards.LineCounter();
  const doc = guards.parseDocument(text, { lineCounter: lines, uniqueKeys: false, resolveKnownTags: false });
  const found: DuplicateKey[] = [];
  // Each map's keys so far, with the line each was first given at.
  const firstLines = new WeakMap<object, Map<string, number>>();
  walkYaml(doc.contents, guards, {
    pair(pair, path, map) {
      let first = firstLines.get(map);
      if (!first) firstLines.set(map, (first = new Map()));
      const key = keyOf(pair.key) ?? '';
      const start = (pair.key as Node | null)?.range?.[0];
      const pos = start === undefined ? undefined : lines.linePos(start);
      const earlier = first.get(key);
      if (earlier !== undefined) found.push({ key, path: [...path, key], line: pos?.line, column: pos?.col, firstLine: earlier });
      else if (pos) first.set(key, pos.line);
    },
  });
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
